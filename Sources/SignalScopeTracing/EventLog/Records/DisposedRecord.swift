import SignalScope

/// `disposed` (kind 11): a subscription ended, and why.
struct DisposedRecord: EventRecord {
    static let kind: UInt8 = 11
    static let name = "disposed"

    var subscription: UInt64 = 0
    /// A ``DisposalCause`` code.
    var cause: UInt8 = 0

    @inline(__always) mutating func fields(_ visitor: inout some RecordFieldVisitor) {
        visitor.visit(&subscription, "subscription")
        visitor.visit(&cause, "cause")
    }

    func event(strings: LogStrings) -> TraceEvent? {
        DisposalCause(rawValue: cause).map { .disposed(SubscriptionID(rawValue: subscription), cause: $0) }
    }
}
