import SignalScope

/// `next` (kind 8): a value was delivered, with its summary when values are recorded.
struct NextRecord: CompactEventRecord {
    static let kind: UInt8 = 8
    static let name = "next"

    var subscription: UInt64 = 0
    var summary: String?

    init() {}

    init(subscription: UInt64, summary: String?) {
        self.subscription = subscription
        self.summary = summary
    }

    init?(subscription: UInt64, detail: UInt8) {
        guard detail == 0 else { return nil }
        self.subscription = subscription
    }

    var compactPayload: (subscription: UInt64, detail: UInt8)? { summary == nil ? (subscription, 0) : nil }

    @inline(__always) mutating func fields(_ visitor: inout some RecordFieldVisitor) {
        visitor.visit(&subscription, "subscription")
        visitor.text(&summary, "summaryLength")
    }

    func event(strings: LogStrings) -> TraceEvent? {
        .next(SubscriptionID(rawValue: subscription), value: summary.map(strings.capped))
    }
}
