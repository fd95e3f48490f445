/// Forwards every call to several hooks, in the order they were installed.
final class FanOutInstrumentation: SignalInstrumentation {
    private let hooks: [any SignalInstrumentation]

    init(_ hooks: [any SignalInstrumentation]) {
        self.hooks = hooks
    }

    func nodeCreated(_ node: NodeDescriptor, object: AnyObject) {
        for hook in hooks { hook.nodeCreated(node, object: object) }
    }
    func nodeNamed(_ node: NodeID, name: String) { for hook in hooks { hook.nodeNamed(node, name: name) } }
    func edgeAdded(_ edge: NodeEdge, to node: NodeID) { for hook in hooks { hook.edgeAdded(edge, to: node) } }
    func subscribed(_ subscription: SubscriptionDescriptor, object: AnyObject) {
        for hook in hooks { hook.subscribed(subscription, object: object) }
    }
    func observerStored(_ subscription: SubscriptionID, closures: ObserverClosures) {
        for hook in hooks { hook.observerStored(subscription, closures: closures) }
    }
    func closuresKept(_ closures: [KeptClosure], by owner: ClosureOwner, object: AnyObject) {
        for hook in hooks { hook.closuresKept(closures, by: owner, object: object) }
    }
    func observerReleased(_ subscription: SubscriptionID) { for hook in hooks { hook.observerReleased(subscription) } }
    func nextDelivered<Value>(_ subscription: SubscriptionID, value: Value) {
        for hook in hooks where hook.activity?.isActive ?? true { hook.nextDelivered(subscription, value: value) }
    }
    func errorDelivered(_ subscription: SubscriptionID, error: any Error) {
        for hook in hooks { hook.errorDelivered(subscription, error: error) }
    }
    func completedDelivered(_ subscription: SubscriptionID) { for hook in hooks { hook.completedDelivered(subscription) } }
    func disposed(_ subscription: SubscriptionID, cause: DisposalCause) {
        for hook in hooks { hook.disposed(subscription, cause: cause) }
    }
    func eventDropped(_ violation: DroppedEvent) { for hook in hooks { hook.eventDropped(violation) } }
}
