import SignalScope

/// `error` (kind 9): an error was delivered.
struct ErrorRecord: EventRecord {
    static let kind: UInt8 = 9
    static let name = "error"

    var subscription: UInt64 = 0
    var description: String?

    @inline(__always) mutating func fields(_ visitor: inout some RecordFieldVisitor) {
        visitor.visit(&subscription, "subscription")
        visitor.text(&description, "descriptionLength")
    }

    func event(strings: LogStrings) -> TraceEvent? {
        guard let description else { return nil }
        return .error(SubscriptionID(rawValue: subscription), description: strings.capped(description))
    }
}
