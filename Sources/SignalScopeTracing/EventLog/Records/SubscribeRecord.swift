import SignalScope

/// `subscribe` (kind 5): a subscription was made.
struct SubscribeRecord: EventRecord {
    static let kind: UInt8 = 5
    static let name = "subscribe"

    var subscription: UInt64 = 0
    var node: UInt64 = 0
    /// 0: none.
    var parentSubscription: UInt64 = 0
    var file: UInt32 = 0
    var function: UInt32 = 0
    var line: UInt32 = 0
    /// 0: none.
    var bindingTarget: UInt64 = 0

    @inline(__always) mutating func fields(_ visitor: inout some RecordFieldVisitor) {
        visitor.visit(&subscription, "subscription")
        visitor.visit(&node, "node")
        visitor.visit(&parentSubscription, "parentSubscription")
        visitor.visit(&file, "file")
        visitor.visit(&function, "function")
        visitor.visit(&line, "line")
        visitor.visit(&bindingTarget, "bindingTarget")
    }

    func event(strings: LogStrings) -> TraceEvent? {
        .subscribe(
            SubscriptionID(rawValue: subscription), node: NodeID(rawValue: node),
            parent: parentSubscription == 0 ? nil : SubscriptionID(rawValue: parentSubscription),
            site: strings.site(file: file, function: function, line: line),
            bindingTarget: bindingTarget == 0 ? nil : NodeID(rawValue: bindingTarget))
    }
}
