import SignalScope
import SignalScopeTracing

/// A subscription made by user code is still live at the end (its source never
/// terminated), nothing but the subscription itself holds its disposable, and no
/// `takeUntil`, `take`, `takeWhile` or `timeout` bounds it: nothing can ever stop it. Or a
/// property binding that a later binding into the same property superseded, both still live.
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
            // What only this subscription keeps (the observer's captures the program no longer
            // uses) leaks with it: one leak, one finding.
            let kept = model.keptAlive(by: [object], stoppingAt: model.claimed)
            findings.append(model.claim(kept, by: Finding(
                rule: Self.rule, severity: Self.severity,
                message: "a subscription to \(model.nodeSubject(subscription.node).name) never ends and its disposable was dropped",
                subject: model.nodeSubject(subscription.node),
                location: subscription.site,
                steps: ["\(model.subscriptionLabel(subscription.id)) is still live: its source never terminated",
                       "nothing but the subscription itself holds its disposable"] + model.keptAliveLine(kept, except: [object]),
                hint: "keep the disposable and dispose it, or end the subscription with takeUntil(lifetime.ended)",
                entities: [.subscription(subscription.id)])))
        }
        return findings + supersededBindings(&model)
    }

    /// Bindings into one property (`property.bind(to:)`) that a later binding into it
    /// superseded while they stayed live: both keep setting it (a recycled cell bound to each
    /// item it shows, every item it ever showed still writing into it). The binding's
    /// disposable belongs to the property, so nothing leaks that trial deletion could see:
    /// the evidence is two live bindings into one target.
    private func supersededBindings(_ model: inout LeakModel) -> [Finding] {
        var byTarget: [NodeID: [Trace.Subscription]] = [:]
        for subscription in model.trace.subscriptions.values where subscription.retainCountAtEnd != nil {
            if let target = subscription.bindingTarget { byTarget[target, default: []].append(subscription) }
        }
        var findings: [Finding] = []
        for (target, bindings) in byTarget.sorted(by: { $0.key < $1.key }) where bindings.count > 1 {
            let ordered = bindings.sorted { $0.id < $1.id }
            let latest = ordered[ordered.count - 1]
            for stale in ordered.dropLast() {
                let targetName = model.nodeSubject(target).name
                let finding = Finding(
                    rule: Self.rule, severity: Self.severity,
                    message: "an earlier binding into \(targetName) is still live and keeps setting it beside a later binding",
                    subject: model.nodeSubject(target),
                    location: stale.site,
                    steps: ["\(model.subscriptionLabel(stale.id)) binds \(model.nodeLabel(target)) and is still live",
                           "\(model.subscriptionLabel(latest.id)), made later, binds it too: both set it whenever their sources send"],
                    hint: "end the earlier binding before binding again: bind source.takeUntil(the reuse signal), or keep the binding's disposable and dispose it first",
                    entities: [.subscription(stale.id), .subscription(latest.id), .node(target)])
                findings.append(model.claim(model.object(for: .subscription(stale.id)).map { [$0] } ?? [], by: finding))
            }
        }
        return findings
    }
}

extension RuleID {
    /// A subscription nothing can end, or a binding a later one superseded.
    public static let leakedSubscription = RuleID("leaked-subscription")
}
