import SignalScopeTracing

/// A live subscription's observer strongly captures an object that keeps that same
/// subscription going: it holds the subscription's disposable, or a subject or signal
/// feeding it. Nothing but such observers holds the object, so it can never be freed: the
/// RACObserve-captures-self trap, and `self.disposable = signal.subscribeNext { self }`.
struct SelfCapturedObserver: Analyzer {
    static let rule = RuleID.selfCapturedObserver

    func analyze(_ model: inout LeakModel) -> [Finding] {
        var findings: [Finding] = []
        for subscription in model.trace.subscriptions.values.sorted(by: { $0.id < $1.id })
        where model.alive.contains(.subscription(subscription.id)) {
            let entity = TraceEntity.subscription(subscription.id)
            for case .object(let object) in (model.edges[entity] ?? [:]).keys.sorted(by: LeakModel.order) {
                let capturers = model.capturers(of: .object(object))
                let heldOnlyByObservers =
                    (model.retainCount[.object(object)] ?? 0)
                    <= model.references(to: .object(object), from: capturers.map { .subscription($0) })
                guard heldOnlyByObservers, let (hold, through) = hold(by: object, on: subscription, in: model) else { continue }
                let name = model.objectLabel(object)
                findings.append(Finding(
                    rule: Self.rule, severity: .error,
                    message: "\(name) is captured by the observer of a subscription it keeps alive, so neither is ever freed",
                    location: subscription.site,
                    path: [hold, "\(model.subscriptionLabel(subscription.id)) is still live",
                           "its observer closure captures \(name) strongly"],
                    hint: "capture [weak self] in the observer, or end the subscription with takeUntil(lifetime.ended)",
                    entities: [entity, .object(object), .node(subscription.node)] + through))
                model.claimed.formUnion([entity, .object(object), .node(subscription.node)] + through)
            }
        }
        return findings
    }

    /// How `object` keeps `subscription` going, as a path step, and the node it does it
    /// through (if not through the disposable), if it does.
    private func hold(
        by object: ObjectID, on subscription: Trace.Subscription, in model: LeakModel
    ) -> (step: String, through: [TraceEntity])? {
        let name = model.objectLabel(object)
        if model.disposablesHeld[object]?.contains(subscription.id) == true {
            return ("\(name) stores the disposable of the subscription below, the only way to end it", [])
        }
        for case .node(let node) in (model.edges[.object(object)] ?? [:]).keys.sorted(by: LeakModel.order)
        where model.feeds(node, subscription.node) {
            return ("\(name) holds \(model.nodeLabel(node)), which feeds the subscription below", [.node(node)])
        }
        return nil
    }
}
