import SignalScope

/// `observerStored` (kind 6): the subscription now keeps its observer's closures alive.
struct ObserverStoredRecord: EventRecord {
    static let kind: UInt8 = 6
    static let name = "observerStored"

    var subscription: UInt64 = 0
    /// ``ObserverHandlers``' bits.
    var handlers: UInt8 = 0

    @inline(__always) mutating func fields(_ visitor: inout some RecordFieldVisitor) {
        visitor.visit(&subscription, "subscription")
        visitor.visit(&handlers, "handlers")
    }

    func event(strings: LogStrings) -> TraceEvent? {
        .observerStored(SubscriptionID(rawValue: subscription), handlers: ObserverHandlers(rawValue: handlers))
    }
}
