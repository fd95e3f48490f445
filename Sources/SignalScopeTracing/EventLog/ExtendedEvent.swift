import SignalScope

/// What a record of a kind added in one file says (docs/contributing.md, "Adding an
/// event-log record kind"): its decoded fields, which `TraceEvent` carries as
/// ``TraceEvent/extended(_:)`` without a case of its own, so that no reader, exporter or
/// `Trace` needs changing for a new kind. Analyzers and tools look for their payload type
/// among ``Trace/extendedEvents``.
public protocol TraceEventPayload: Sendable, Hashable {
    /// The event's kind as reports and exports name it (`retained-object`).
    var name: String { get }
    /// The subscription it is about, if it is about one.
    var subscription: SubscriptionID? { get }
    /// Its fields as exports show them, in order: a key, and the value as text.
    var exportedFields: [(key: String, value: String)] { get }
    /// Whether it is history, one of as many as there are events (a demand a subscriber
    /// made), which no analysis reads: a trace that keeps only live entities
    /// (``Trace/Detail/liveEntities``) does not keep it, so that its memory stays flat.
    static var isHistory: Bool { get }
}

extension TraceEventPayload {
    public var subscription: SubscriptionID? { nil }
    public static var isHistory: Bool { false }
}

/// A ``TraceEventPayload`` of any type.
public struct ExtendedEvent: Sendable, Hashable {
    /// The decoded fields.
    public let payload: any TraceEventPayload

    /// Wraps `payload`.
    public init(_ payload: some TraceEventPayload) { self.payload = payload }

    public static func == (lhs: Self, rhs: Self) -> Bool { AnyHashable(lhs.payload) == AnyHashable(rhs.payload) }
    public func hash(into hasher: inout Hasher) { hasher.combine(AnyHashable(payload)) }
}
