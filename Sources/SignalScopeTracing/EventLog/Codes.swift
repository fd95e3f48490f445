import SignalScope

// The numbers the log uses for the runtime's enumerations. They are part of the format
// (docs/event-log.md): add new ones at the end, never renumber.

extension NodeKind {
    private static let order: [NodeKind] = [
        .signal, .subject, .replaySubject, .behaviorSubject, .property, .lifetime, .operator, .command,
    ]
    var code: UInt8 { UInt8(Self.order.firstIndex(of: self)!) }
    init?(code: UInt8) {
        guard Int(code) < Self.order.count else { return nil }
        self = Self.order[Int(code)]
    }
}

extension EdgeKind {
    var code: UInt8 { self == .data ? 0 : 1 }
    init?(code: UInt8) {
        switch code {
        case 0: self = .data
        case 1: self = .control
        default: return nil
        }
    }
}

extension DroppedEvent.Kind {
    var code: UInt8 {
        switch self {
        case .next: 0
        case .error: 1
        case .completed: 2
        }
    }
    init?(code: UInt8) {
        switch code {
        case 0: self = .next
        case 1: self = .error
        case 2: self = .completed
        default: return nil
        }
    }
}

/// The code an `alive` or a `libraryType` record gives the node or subscription it is about.
/// These were numbered from 0 before the heap's records numbered every entity from 1
/// (``EntityCode``, whose 0 is none); both stay as the format has them.
enum LiveEntityCode: UInt8 {
    case node = 0, subscription = 1

    /// The entity `id` is under this code.
    func entity(_ id: UInt64) -> TraceEntity {
        switch self {
        case .node: .node(NodeID(rawValue: id))
        case .subscription: .subscription(SubscriptionID(rawValue: id))
        }
    }
}
