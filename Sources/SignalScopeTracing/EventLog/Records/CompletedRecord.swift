import SignalScope

/// `completed` (kind 10): a completed event was delivered.
struct CompletedRecord: SubscriptionEventRecord {
    static let kind: UInt8 = 10
    static let name = "completed"

    var subscription: UInt64 = 0

    @inline(__always) mutating func fields(_ visitor: inout some RecordFieldVisitor) {
        visitor.visit(&subscription, "subscription")
    }

    func event(strings: LogStrings) -> TraceEvent? { .completed(SubscriptionID(rawValue: subscription)) }
}
