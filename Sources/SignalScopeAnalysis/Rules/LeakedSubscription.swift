import SignalScopeTracing

/// A subscription made by user code is still live at the end (its source never
/// terminated), nothing but the subscription itself holds its disposable, and no
/// `takeUntil`, `take`, `takeWhile` or `timeout` bounds it: nothing can ever stop it.
struct LeakedSubscription: Analyzer {
    static let rule = RuleID.leakedSubscription
    static let severity = Severity.warning
    static let summary = "A subscription to a signal that never ends runs forever because its disposable was dropped."

    func analyze(_ model: inout LeakModel) -> [Finding] {
        var findings: [Finding] = []
        for subscription in model.trace.subscriptions.values.sorted(by: { $0.id < $1.id })
        where subscription.parent == nil && subscription.retainCountAtEnd != nil && !model.isBounded(subscription.node) {
            guard let object = model.object(for: .subscription(subscription.id)), !model.claimed.contains(object),
                !model.garbage.contains(object), let disposable = model.object(for: .disposable(subscription.id)),
                model.runtimeKeepers(of: disposable) == [object]
            else { continue }
            findings.append(Finding(
                rule: Self.rule, severity: Self.severity,
                message: "a subscription to \(model.nodeSubject(subscription.node).name) never ends and its disposable was dropped",
                subject: model.nodeSubject(subscription.node),
                location: subscription.site,
                path: ["\(model.subscriptionLabel(subscription.id)) is still live: its source never terminated",
                       "nothing but the subscription itself holds its disposable"],
                hint: "keep the disposable and dispose it, or end the subscription with takeUntil(lifetime.ended)",
                entities: [.subscription(subscription.id)]))
            model.claimed.insert(object)
        }
        return findings
    }
}
