extension TraceEvent {
    /// Kinds of events, as a set: those a ``TraceFact`` follows.
    public struct Kinds: OptionSet, Sendable, Hashable {
        /// A bit for each kind.
        public let rawValue: UInt32
        /// The set whose bits are `rawValue`'s.
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// A node made.
        public static let node = Kinds(rawValue: 1 << 0)
        /// A node named.
        public static let nodeNamed = Kinds(rawValue: 1 << 1)
        /// A parent added to a node.
        public static let edge = Kinds(rawValue: 1 << 2)
        /// A subscription made.
        public static let subscribe = Kinds(rawValue: 1 << 3)
        /// A subscription's observer stored.
        public static let observerStored = Kinds(rawValue: 1 << 4)
        /// A subscription's observer released.
        public static let observerReleased = Kinds(rawValue: 1 << 5)
        /// A value delivered.
        public static let next = Kinds(rawValue: 1 << 6)
        /// An error delivered.
        public static let error = Kinds(rawValue: 1 << 7)
        /// Completion delivered.
        public static let completed = Kinds(rawValue: 1 << 8)
        /// A subscription ended.
        public static let disposed = Kinds(rawValue: 1 << 9)
        /// An event sent against the grammar.
        public static let violation = Kinds(rawValue: 1 << 10)
        /// The recording stopped cleanly.
        public static let end = Kinds(rawValue: 1 << 11)
        /// The closing snapshot began.
        public static let snapshot = Kinds(rawValue: 1 << 12)
        /// In the snapshot: a node alive.
        public static let nodeAlive = Kinds(rawValue: 1 << 13)
        /// In the snapshot: a subscription alive.
        public static let subscriptionAlive = Kinds(rawValue: 1 << 14)
        /// In the snapshot: an object the heap walk reached.
        public static let heapObject = Kinds(rawValue: 1 << 15)
        /// In the snapshot: a strong reference between two objects.
        public static let reference = Kinds(rawValue: 1 << 16)
        /// A test scheduler's virtual time.
        public static let virtualTime = Kinds(rawValue: 1 << 17)
        /// In the snapshot: where a class is declared.
        public static let typeSite = Kinds(rawValue: 1 << 18)
        /// A record of a kind that defines its own payload.
        public static let extended = Kinds(rawValue: 1 << 19)
        /// Every kind, those added later included.
        public static let all = Kinds(rawValue: .max)
    }

    /// The event's kind.
    public var kind: Kinds {
        switch self {
        case .node: .node
        case .nodeNamed: .nodeNamed
        case .edge: .edge
        case .subscribe: .subscribe
        case .observerStored: .observerStored
        case .observerReleased: .observerReleased
        case .next: .next
        case .error: .error
        case .completed: .completed
        case .disposed: .disposed
        case .violation: .violation
        case .end: .end
        case .snapshot: .snapshot
        case .nodeAlive: .nodeAlive
        case .subscriptionAlive: .subscriptionAlive
        case .heapObject: .heapObject
        case .reference: .reference
        case .virtualTime: .virtualTime
        case .typeSite: .typeSite
        case .extended: .extended
        }
    }
}
