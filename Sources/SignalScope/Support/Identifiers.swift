import Synchronization

/// Identifies one node of the signal graph: a signal, subject, property, lifetime or operator stage.
///
/// Identifiers are unique for the life of the process and never reused, so a trace can
/// refer to a node after it has been deallocated.
public struct NodeID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The number behind the identifier, as event logs store it.
    public let rawValue: UInt64
    /// Wraps a number read back from an event log.
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    /// Identifiers are handed out in increasing order, so this is creation order.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
    /// The number's own one-shot hash: tables keyed by identifiers are on the hot paths of
    /// recording and reading, where feeding and finalizing a hasher costs about three times
    /// as much.
    public func _rawHashValue(seed: Int) -> Int { rawValue._rawHashValue(seed: seed) }
    public var description: String { "n\(rawValue)" }

    /// A fresh identifier, unique in the process: the runtime's for every node it makes, and
    /// an adapter's for the nodes of another reactive library it describes.
    public static func next() -> NodeID { NodeID(rawValue: nodeCounter.add(1, ordering: .relaxed).newValue) }
}

/// Identifies one subscription: one observer attached to one node.
///
/// Subscriptions made while no instrumentation is installed carry ``untraced``.
public struct SubscriptionID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The number behind the identifier, as event logs store it.
    public let rawValue: UInt64
    /// Wraps a number read back from an event log.
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    /// Identifiers are handed out in increasing order, so this is creation order.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
    /// The number's own one-shot hash: tables keyed by identifiers are on the hot paths of
    /// recording and reading, where feeding and finalizing a hasher costs about three times
    /// as much.
    public func _rawHashValue(seed: Int) -> Int { rawValue._rawHashValue(seed: seed) }
    public var description: String { "s\(rawValue)" }

    /// The identifier of a subscription made while no instrumentation was installed.
    public static let untraced = SubscriptionID(rawValue: 0)

    /// A fresh identifier, unique in the process (see ``NodeID/next()``).
    public static func next() -> SubscriptionID {
        SubscriptionID(rawValue: subscriptionCounter.add(1, ordering: .relaxed).newValue)
    }
}

private let nodeCounter = Atomic<UInt64>(0)
private let subscriptionCounter = Atomic<UInt64>(0)
