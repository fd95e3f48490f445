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
        case .element: .element
        case .key: .key
        case .value: .value
        case .boxedValue: .boxedValue
        }
    }

    /// The kind `code` stands for, reading what travels beside it only for the codes that
    /// carry it: `index` for an element, `key` for a dictionary's value (`.some(nil)`: its
    /// key was not known); `nil` for an unknown code or a payload that could not be read.
    package init?(code: UInt8, index: () -> Int?, key: () -> String??) {
        switch ReferenceKindCode(rawValue: code) {
        case .storedProperty?: self = .storedProperty
        case .capture?: self = .capture
        case .boxedValue?: self = .boxedValue
        case .key?: self = .key
        case .element?:
            guard let index = index() else { return nil }
            self = .element(index)
        case .value?:
            guard let key = key() else { return nil }
            self = .value(forKey: key)
        case nil: return nil
        }
    }
}
