/// What a node means for its subscriptions, declared by the code that makes it (an
/// operator's own file, a subject's, a factory's) and recorded in traces, so that analyses
/// and renderers read a node's meaning instead of recognising it by name.
///
/// Adding an operator sets its traits where it creates its node; nothing elsewhere lists
/// operators (see `docs/contributing.md`).
public struct NodeTraits: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// Cold: runs the user's work again for every subscription (a creation block, a
    /// `defer` factory, an `interval` timer), so two subscriptions repeat its side effects.
    public static let cold = NodeTraits(rawValue: 1 << 0)

    /// Hot: shares one stream among all its subscribers and keeps them in its subscriber
    /// list until it sends a terminal event (a subject, a multicast's subject, a property).
    public static let hot = NodeTraits(rawValue: 1 << 1)

    /// Sends its terminal event without user code sending it: when its owner goes away (a
    /// property, a lifetime, a command's signals) or when its work ends (a command's
    /// execution), so nobody has to complete it.
    public static let completesByItself = NodeTraits(rawValue: 1 << 2)

    /// Bounding: ends its subscriptions by itself, whatever its data sources do (`take`,
    /// `takeUntil`, `takeWhile`, `timeout`), so a subscription through it is not left open
    /// by an infinite source.
    public static let bounding = NodeTraits(rawValue: 1 << 3)

    /// The traits' names, in declaration order: `["cold"]`, `["hot", "completesByItself"]`.
    public var names: [String] {
        [(Self.cold, "cold"), (.hot, "hot"), (.completesByItself, "completesByItself"), (.bounding, "bounding")]
            .filter { contains($0.0) }.map(\.1)
    }
}
