import SignalScope

/// `observerReleased` (kind 7): it let its observer's closures go.
struct ObserverReleasedRecord: CompactEventRecord {
    static let kind: UInt8 = 7
    static let name = "observerReleased"

    var subscription: UInt64 = 0

    init() {}

    init(subscription: UInt64) {
        self.subscription = subscription
    }

    init?(subscription: UInt64, detail: UInt8) {
        guard detail == 0 else { return nil }
        self.subscription = subscription
    }

    var compactPayload: (subscription: UInt64, detail: UInt8)? { (subscription, 0) }

    @inline(__always) mutating func fields(_ visitor: inout some RecordFieldVisitor) {
        visitor.visit(&subscription, "subscription")
    }

    func event(strings: LogStrings) -> TraceEvent? { .observerReleased(SubscriptionID(rawValue: subscription)) }
}
