import SignalScope

/// `observerReleased` (kind 7): it let its observer's closures go.
struct ObserverReleasedRecord: SubscriptionEventRecord {
    static let kind: UInt8 = 7
    static let name = "observerReleased"

    var subscription: UInt64 = 0

    @inline(__always) mutating func fields(_ visitor: inout some RecordFieldVisitor) {
        visitor.visit(&subscription, "subscription")
    }

    func event(strings: LogStrings) -> TraceEvent? { .observerReleased(SubscriptionID(rawValue: subscription)) }
}
