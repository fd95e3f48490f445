import SignalScope

/// `demand` (kind 28, format 3.5): a subscriber asked its upstream for more values
/// (`SignalInstrumentation.demandRequested`): Combine's back-pressure, which a library that
/// has it reports and SignalScope's own runtime, which has none, never does.
struct DemandRecord: EventRecord {
    static let kind: UInt8 = 28
    static let name = "demand"
    /// The demand that has no bound.
    static let unlimited = UInt64.max

    var subscription: UInt64 = 0
    /// How many more values (``unlimited``: any number).
    var demand: UInt64 = 0

    init() {}

    init(subscription: SubscriptionID, demand: SubscriptionDemand) {
        self.subscription = subscription.rawValue
        switch demand {
        case .unlimited: self.demand = Self.unlimited
        case .max(let count): self.demand = UInt64(clamping: count)
        }
    }

    @inline(__always) mutating func fields(_ visitor: inout some RecordFieldVisitor) {
        visitor.visit(&subscription, "subscription")
        visitor.visit(&demand, "demand")
    }

    func event(strings: LogStrings) -> TraceEvent? {
        .extended(
            ExtendedEvent(
                DemandRequested(
                    subscription: SubscriptionID(rawValue: subscription),
                    demand: demand == Self.unlimited ? .unlimited : .max(Int(clamping: demand)))))
    }
}

/// A subscriber asked for more values: the `demand` record's event.
public struct DemandRequested: TraceEventPayload {
    /// The subscription whose subscriber asked.
    public let subscription: SubscriptionID?
    /// How many more it asked for.
    public let demand: SubscriptionDemand

    public var name: String { "demand" }
    public static var isHistory: Bool { true }
    public var exportedFields: [(key: String, value: String)] { [("demand", demand.description)] }
}
