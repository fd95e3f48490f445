import SignalScope

/// `violation` (kind 12): an event sent after a terminal event, dropped, with the call stack
/// of the send.
struct ViolationRecord: EventRecord {
    static let kind: UInt8 = 12
    static let name = "violation"

    var node: UInt64 = 0
    /// 0: sent to a subject.
    var subscription: UInt64 = 0
    /// A ``DroppedEvent/Kind`` code.
    var event: UInt8 = 0
    var stack: UInt32 = 0
    var file: UInt32 = 0
    var function: UInt32 = 0
    /// 0: no user frame.
    var line: UInt32 = 0

    @inline(__always) mutating func fields(_ visitor: inout some RecordFieldVisitor) {
        visitor.visit(&node, "node")
        visitor.visit(&subscription, "subscription")
        visitor.visit(&event, "event")
        visitor.zeros(3)
        visitor.visit(&stack, "stack")
        visitor.visit(&file, "file")
        visitor.visit(&function, "function")
        visitor.visit(&line, "line")
    }

    func event(strings: LogStrings) -> TraceEvent? {
        guard let kind = DroppedEvent.Kind(code: event) else { return nil }
        return .violation(
            node: NodeID(rawValue: node), subscription: subscription == 0 ? nil : SubscriptionID(rawValue: subscription),
            event: kind, site: line == 0 ? nil : strings.site(file: file, function: function, line: line),
            stack: strings.whole(stack))
    }
}
