// The numbers a heap snapshot's reference kinds are written as, in the event log
// (`reference` records, docs/event-log.md) and on the wire from the walk's forked copy to
// the recording process alike: each number is written here once, and both directions of
// every encoding use these. Add new ones at the end, never renumber. (What an object is to
// the runtime travels on the wire as the tag its caller gave it; its codes are the trace's,
// `EntityCode`.)

/// A reference kind's code.
package enum ReferenceKindCode: UInt8 {
    case storedProperty = 0, capture, element, key, value, boxedValue
}

extension HeapReferenceKind {
    /// Its code; an element's index or a value's key travel beside it.
    package var code: ReferenceKindCode {
        switch self {
        case .storedProperty: .storedProperty
        case .capture: .capture
        case .element(.element): .element
        case .element(.key): .key
        case .element(.value): .value
        case .boxedValue: .boxedValue
        }
    }
}
