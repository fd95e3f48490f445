import SignalScope
import SignalScopeTracing

/// One cold signal's creation block ran more than once because of separate subscriptions:
/// its side effects (a network request, say) repeated.
struct RepeatedColdSubscription: Analyzer {
    static let rule = RuleID.repeatedColdSubscription
    static let severity = Severity.warning
    static let summary = "A cold signal was subscribed more than once, so its creation block (a request, say) ran once per subscription."

    func analyze(_ model: inout LeakModel) -> [Finding] {
        let roots = model.trace.rootSubscriptions
        return roots.keys.sorted().compactMap { node in
            guard let count = roots[node]?.count, count > 1, let site = model.trace.nodes[node]?.site else { return nil }
            let sites = roots[node]!.sorted().prefix(8).map { root in
                model.trace.rootSubscriptionSites[root].map { "subscribed at \($0)" } ?? "subscription #\(root.rawValue)"
            }
            return Finding(
                rule: Self.rule, severity: Self.severity,
                message: "the creation block of \(model.nodeSubject(node).name) ran again for every separate subscription",
                subject: model.nodeSubject(node),
                location: site, path: ["its creation block ran \(count) times, once per subscription"] + sites,
                hint: "subscribe once and share the result with replay() or publish()",
                entities: [.node(node)] + roots[node]!.sorted().map { .subscription($0) })
        }
    }
}
