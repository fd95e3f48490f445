import SignalScopeCore
import SignalScopeTracing

/// One cold signal's creation block ran more than once because of separate subscriptions:
/// its side effects (a network request, say) repeated.
struct RepeatedColdSubscription: Analyzer {
    static let rule = RuleID.repeatedColdSubscription

    func analyze(_ model: inout LeakModel) -> [Finding] {
        let subscriptions = model.trace.subscriptions
        func root(_ id: SubscriptionID) -> SubscriptionID {
            var current = id
            while let parent = subscriptions[current]?.parent { current = parent }
            return current
        }
        var roots: [NodeID: Set<SubscriptionID>] = [:]
        for subscription in subscriptions.values
        where model.trace.nodes[subscription.node]?.name == "createSignal" {
            roots[subscription.node, default: []].insert(root(subscription.id))
        }
        return roots.keys.sorted().compactMap { node in
            guard let count = roots[node]?.count, count > 1, let site = model.trace.nodes[node]?.site else { return nil }
            let sites = roots[node]!.sorted().compactMap { subscriptions[$0]?.site }.map { "subscribed at \($0)" }
            return Finding(
                rule: Self.rule, severity: .warning,
                message: "the creation block of \(model.nodeLabel(node)) ran \(count) times, once per separate subscription",
                location: site, path: sites,
                hint: "subscribe once and share the result with replay() or publish()")
        }
    }
}
