import SignalScope

/// `next` (kind 8): a value was delivered, with its summary when values are recorded.
struct NextRecord: EventRecord {
    static let kind: UInt8 = 8
    static let name = "next"

    var subscription: UInt64 = 0
    var summary: String?

    @inline(__always) mutating func fields(_ visitor: inout some RecordFieldVisitor) {
        visitor.visit(&subscription, "subscription")
        visitor.text(&summary, "summaryLength")
    }

    func event(strings: LogStrings) -> TraceEvent? {
        .next(SubscriptionID(rawValue: subscription), value: summary.map(strings.capped))
    }
}
