import SignalScope

/// `droppedDisposable` (kind 30, format 3.6): in the snapshot, a live subscription whose
/// disposable, which its library handed the program
/// (``SignalInstrumentation/disposableReturned(_:for:)``), was freed before it: nothing can
/// end the subscription now. SignalScope's own subscriptions keep their disposables, and
/// write none.
struct DroppedDisposableRecord: EventRecord {
    static let kind: UInt8 = 30
    static let name = "droppedDisposable"

    var subscription: UInt64 = 0

    init() {}

    init(subscription: SubscriptionID) {
        self.subscription = subscription.rawValue
    }

    @inline(__always) mutating func fields(_ visitor: inout some RecordFieldVisitor) {
        visitor.visit(&subscription, "subscription")
    }

    func event(strings: LogStrings) -> TraceEvent? {
        .extended(ExtendedEvent(DisposableDropped(subscription: SubscriptionID(rawValue: subscription))))
    }
}

/// A live subscription whose disposable the program dropped: the `droppedDisposable` record's event.
public struct DisposableDropped: TraceEventPayload {
    public let subscription: SubscriptionID?
    public var name: String { "dropped-disposable" }
    public var exportedFields: [(key: String, value: String)] { [] }
}

extension Trace {
    /// The live subscriptions whose disposables, handed to the program by their library, the
    /// program dropped before the snapshot.
    public var droppedDisposables: Set<SubscriptionID> {
        Set(extendedEvents.compactMap { record in
            if case .extended(let event) = record.event, let dropped = event.payload as? DisposableDropped { dropped.subscription } else { nil }
        })
    }
}
