import SignalScope

// The numbers a heap snapshot's reference kinds and runtime entities are written as, in the
// event log (`reference`, `heapObject` and `retained` records, docs/event-log.md) and on the
// wire from the walk's forked copy to the recording process alike: each number is written
// here once, and both directions of every encoding use these. Add new ones at the end,
// never renumber.

/// A reference kind's code.
enum ReferenceKindCode: UInt8 {
    case storedProperty = 0, capture, element, key, value, boxedValue
}

extension HeapReferenceKind {
    /// Its code; an element's index or a value's key travel beside it.
    var code: ReferenceKindCode {
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

/// A runtime entity's code: what a heap object is to the runtime, if anything.
enum EntityCode: UInt8 {
    case none = 0, node, subscription, disposable, command, scheduledAction
}

extension TraceHeap.Role {
    /// Its code, and the id that goes with it (0 for none).
    var code: (code: EntityCode, id: UInt64) {
        switch self {
        case .node(let id): (.node, id.rawValue)
        case .subscription(let id): (.subscription, id.rawValue)
        case .disposable(let id): (.disposable, id.rawValue)
        case .command: (.command, 0)
        case .scheduledAction(let id): (.scheduledAction, id?.rawValue ?? 0)
        }
    }

    /// The entity `code` and `id` stand for; `nil` for none, or for a code this reader does
    /// not know (`isKnown` then false).
    static func decoded(_ code: UInt8, id: UInt64) -> (entity: TraceHeap.Role?, isKnown: Bool) {
        switch EntityCode(rawValue: code) {
        case .none?: (nil, true)
        case .node?: (.node(NodeID(rawValue: id)), true)
        case .subscription?: (.subscription(SubscriptionID(rawValue: id)), true)
        case .disposable?: (.disposable(SubscriptionID(rawValue: id)), true)
        case .command?: (.command, true)
        case .scheduledAction?: (.scheduledAction(id == 0 ? nil : SubscriptionID(rawValue: id)), true)
        case nil: (nil, false)
        }
    }
}
