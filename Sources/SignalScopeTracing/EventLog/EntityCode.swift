import SignalScope
import SignalScopeHeap

/// A runtime entity's code: what a heap object is to the runtime, if anything. The numbers
/// are written here once, in the event log (`heapObject` and `retained` records,
/// docs/event-log.md) and as the tag the heap walk carries from its forked copy alike. Add new
/// ones at the end, never renumber.
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

    /// The tag the heap walk carries for it.
    var tag: HeapWalker.Tag {
        let (code, id) = code
        return HeapWalker.Tag(kind: code.rawValue, id: id)
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

    /// The entity a heap walk's tag stands for (the walk carries only tags this code made).
    init?(tag: HeapWalker.Tag) {
        guard let entity = Self.decoded(tag.kind, id: tag.id).entity else { return nil }
        self = entity
    }
}
