import SignalScopeTracing

/// A subscription that is still live at the end of the trace (its source never
/// terminated), whose disposable nobody kept, and that no `takeUntil`, `take`, `takeWhile`
/// or `timeout` bounds: nothing can ever stop it.
struct LeakedSubscription: Analyzer {
    static let rule = RuleID.leakedSubscription

    func analyze(_ model: inout LeakModel) -> [Finding] {
        let kept = Set(model.disposablesHeld.values.flatMap { $0 })
        var findings: [Finding] = []
        for subscription in model.trace.subscriptions.values.sorted(by: { $0.id < $1.id })
        where subscription.parent == nil && model.alive.contains(.subscription(subscription.id))
            && !model.claimed.contains(.subscription(subscription.id)) && !kept.contains(subscription.id)
            && !model.isBounded(subscription.node)
        {
            findings.append(Finding(
                rule: Self.rule, severity: .warning,
                message: "a subscription to \(model.nodeLabel(subscription.node)) never ends and its disposable was dropped",
                location: subscription.site,
                path: ["\(model.subscriptionLabel(subscription.id)) is still live: its source never terminated",
                       "no object holds its disposable"],
                hint: "keep the disposable and dispose it, or end the subscription with takeUntil(lifetime.ended)",
                entities: [.subscription(subscription.id)]))
            model.claimed.insert(.subscription(subscription.id))
        }
        return findings
    }
}
