import SignalScope

/// `disposed` (kind 11): a subscription ended, and why.
struct DisposedRecord: CompactEventRecord {
    static let kind: UInt8 = 11
    static let name = "disposed"

    var subscription: UInt64 = 0
    /// A ``DisposalCause`` code.
    var cause: UInt8 = 0

    init() {}

    init(subscription: UInt64, cause: UInt8 = 0) {
        self.subscription = subscription
        self.cause = cause
    }

    init?(subscription: UInt64, detail: UInt8) {
        self.init(subscription: subscription, cause: detail)
    }

    var compactPayload: (subscription: UInt64, detail: UInt8)? { (subscription, cause) }

    @inline(__always) mutating func fields(_ visitor: inout some RecordFieldVisitor) {
        visitor.visit(&subscription, "subscription")
        visitor.visit(&cause, "cause")
    }

    func event(strings: LogStrings) -> TraceEvent? {
        DisposalCause(rawValue: cause).map { .disposed(SubscriptionID(rawValue: subscription), cause: $0) }
    }
}
