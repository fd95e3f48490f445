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
    /// See ``identifierHash(_:seed:)``.
    public func _rawHashValue(seed: Int) -> Int { identifierHash(rawValue, seed: seed) }
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
    /// See ``identifierHash(_:seed:)``.
    public func _rawHashValue(seed: Int) -> Int { identifierHash(rawValue, seed: seed) }
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

/// How a table keyed by identifiers (a node's, a subscription's) hashes one: SplitMix64's
/// finalizer of the number and the table's seed.
///
/// Such tables are on the hot paths of recording and reading. What counts is that every bit
/// of the number reaches the low bits, which pick a bucket. A log read back carries its
/// writer's identifiers, but the seed added before mixing is the table's own (drawn per
/// process, unless hashing is made deterministic), so a log cannot aim its identifiers at
/// one bucket. The finalizer mixes in two multiplications, inline, where the number's own hash
/// (SipHash, out of line) cost a traced `churn` operation's sixteen or so lookups about 1,100
/// instructions (`docs/performance.md`).
@inline(__always)
package func identifierHash(_ rawValue: UInt64, seed: Int) -> Int {
    var mixed = rawValue &+ UInt64(bitPattern: Int64(seed)) &* 0x9E37_79B9_7F4A_7C15
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return Int(truncatingIfNeeded: mixed ^ (mixed >> 31))
}
