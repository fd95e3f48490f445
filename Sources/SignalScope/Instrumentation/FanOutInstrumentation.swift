import Foundation

/// Forwards every call to several hooks, in the order they were installed.
///
/// A delivery, or a scheduled action, runs inside every hook's call in turn (the first
/// hook's call outermost), so that each hook sees it happen during the event it recorded; a
/// delivery, a scheduled action or a creation block's run reported as a beginning and an end begins with every
/// hook in order and ends in the reverse order.
final class FanOutInstrumentation: SignalInstrumentation {
    private let hooks: [any SignalInstrumentation]

    init(_ hooks: [any SignalInstrumentation]) {
        self.hooks = hooks
    }

    func watchesCurrentCode() -> Bool { hooks.contains { $0.watchesCurrentCode() } }

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
    func nextDelivered<Value>(_ subscription: SubscriptionID, value: Value, deliver: () -> Void) {
        // A hook whose activity stopped is passed over in place: filtering the list first
        // would allocate an array for every value.
        nested(hooks[...], deliver) { hook, inner in
            if hook.activity?.isActive ?? true { hook.nextDelivered(subscription, value: value, deliver: inner) } else { inner() }
        }
    }
    func errorDelivered(_ subscription: SubscriptionID, error: any Error, deliver: () -> Void) {
        nested(hooks[...], deliver) { hook, inner in hook.errorDelivered(subscription, error: error, deliver: inner) }
    }
    func completedDelivered(_ subscription: SubscriptionID, deliver: () -> Void) {
        nested(hooks[...], deliver) { hook, inner in hook.completedDelivered(subscription, deliver: inner) }
    }
    func nextWillBeDelivered<Value>(_ subscription: SubscriptionID, value: Value) -> DeliveryToken {
        began { hook in hook.activity?.isActive ?? true ? hook.nextWillBeDelivered(subscription, value: value) : .none }
    }
    func errorWillBeDelivered(_ subscription: SubscriptionID, error: any Error) -> DeliveryToken {
        began { $0.errorWillBeDelivered(subscription, error: error) }
    }
    func completedWillBeDelivered(_ subscription: SubscriptionID) -> DeliveryToken {
        began { $0.completedWillBeDelivered(subscription) }
    }
    func deliveryEnded(_ token: DeliveryToken) {
        ended(token) { hook, token in hook.deliveryEnded(token) }
    }
    func virtualTimeReached(_ now: Date) { for hook in hooks { hook.virtualTimeReached(now) } }
    func actionScheduled() -> (any Sendable)? { hooks.map { $0.actionScheduled() } }
    func scheduledActionRuns(_ scheduled: (any Sendable)?, run: () -> Void) {
        let each = scheduled as? [(any Sendable)?] ?? []
        var index = 0
        nested(hooks[...], run) { hook, inner in
            let value = index < each.count ? each[index] : nil
            index += 1
            hook.scheduledActionRuns(value, run: inner)
        }
    }
    func scheduledActionWillRun(_ scheduled: (any Sendable)?) -> DeliveryToken {
        let each = scheduled as? [(any Sendable)?] ?? []
        var index = 0
        return began { hook in
            defer { index += 1 }
            return hook.scheduledActionWillRun(index < each.count ? each[index] : nil)
        }
    }
    func scheduledActionEnded(_ token: DeliveryToken) {
        ended(token) { hook, token in hook.scheduledActionEnded(token) }
    }
    func creationBlockRuns(for subscription: SubscriptionID, run: () -> Void) {
        nested(hooks[...], run) { hook, inner in hook.creationBlockRuns(for: subscription, run: inner) }
    }
    func creationBlockWillRun(for subscription: SubscriptionID) -> DeliveryToken {
        began { $0.creationBlockWillRun(for: subscription) }
    }
    func creationBlockEnded(_ token: DeliveryToken) {
        ended(token) { hook, token in hook.creationBlockEnded(token) }
    }
    func disposableReturned(_ disposable: AnyObject, for subscription: SubscriptionID) {
        for hook in hooks { hook.disposableReturned(disposable, for: subscription) }
    }
    func disposed(_ subscription: SubscriptionID, cause: DisposalCause) {
        for hook in hooks { hook.disposed(subscription, cause: cause) }
    }
    func demandRequested(_ subscription: SubscriptionID, demand: SubscriptionDemand) {
        for hook in hooks { hook.demandRequested(subscription, demand: demand) }
    }
    func eventDropped(_ violation: DroppedEvent) { for hook in hooks { hook.eventDropped(violation) } }
    func nodeTerminated(_ node: NodeID) { for hook in hooks { hook.nodeTerminated(node) } }
    func nodeDeinitialized(_ node: NodeID) { for hook in hooks { hook.nodeDeinitialized(node) } }
    func subscriptionDeinitialized(_ subscription: SubscriptionID) {
        for hook in hooks { hook.subscriptionDeinitialized(subscription) }
    }

    /// Each hook's token for one delivery, in the hooks' order.
    private final class Began: Sendable {
        let tokens: [DeliveryToken]

        init(_ tokens: [DeliveryToken]) {
            self.tokens = tokens
        }
    }

    /// Begins a delivery with every hook, the first first.
    private func began(_ begin: (any SignalInstrumentation) -> DeliveryToken) -> DeliveryToken {
        DeliveryToken(context: Began(hooks.map(begin)))
    }

    /// Ends what ``began(_:)`` began with every hook, the last first: the first hook's is
    /// outermost, as in the nested form.
    private func ended(_ token: DeliveryToken, _ end: (any SignalInstrumentation, DeliveryToken) -> Void) {
        guard let began = token.context as? Began else { return }
        for (hook, token) in zip(hooks, began.tokens).reversed() { end(hook, token) }
    }

    /// Runs `body` inside `call` of the first hook, which runs the rest inside its own, and
    /// so on: each hook's call wraps the next.
    private func nested(
        _ hooks: ArraySlice<any SignalInstrumentation>, _ body: () -> Void,
        _ call: (any SignalInstrumentation, () -> Void) -> Void
    ) {
        guard let first = hooks.first else { return body() }
        // Each hook calls its `deliver` once, before returning, so `call` does not escape.
        withoutActuallyEscaping(call) { call in
            call(first) { nested(hooks.dropFirst(), body, call) }
        }
    }
}
