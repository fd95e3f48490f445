import SignalScope
import SignalScopeTracing

/// One cold signal's work ran once per consumer, for two or more consumers: its side
/// effects (a network request, say) repeated. Evidence, not a count: runs for subscriptions
/// user code made at different sites, or from one site while an earlier run from it was
/// still alive, each doing work of its own (a value its creation block produced rather than
/// forwarded, a timer's tick). A custom operator written as a `Signal { }` block that only
/// forwards its source, or a subscription made again from the same site after the last one
/// ended (a refresh, a re-activation, a retry), is no evidence.
struct RepeatedColdSubscription: Analyzer {
    static let rule = RuleID.repeatedColdSubscription
    static let severity = Severity.warning
    static let summary = "A cold signal's work ran once for each of several consumers, so its side effects (a request, say) repeated."
    static let facts: [any TraceFact.Type] = [ColdRuns.self]

    func analyze(_ model: inout LeakModel) -> [Finding] {
        let repeated = model.trace.fact(ColdRuns.self)?.repeated ?? [:]
        return repeated.keys.sorted().compactMap { node in
            guard let site = model.trace.nodes[node]?.site,
                let runs = Self.evidence(repeated[node] ?? [])
            else { return nil }
            let sites = runs.prefix(8).map { run -> FindingStep in
                run.rootSite.map { "subscribed at \($0)" } ?? .name(Trace.name(of: run.root), of: .subscription(run.root))
            }
            return Finding(
                rule: Self.rule, severity: Self.severity,
                message: "the work of \(model.nodeSubject(node).name) ran once for each of its consumers",
                subject: model.nodeSubject(node),
                location: site,
                steps: sites + ["the work ran for each of these consumers: it sent values of its own, not only ones forwarded from its sources"],
                hint: "subscribe once and share the result with replay() or publish()",
                entities: [.node(node)] + runs.map { .subscription($0.root) })
        }
    }

    /// The runs that did work for two or more consumers (at most eight): one for each site
    /// user code subscribed from when there are several; else, from one site, each run that
    /// started while a run for another subscription was still alive. A subscription made again
    /// from the same site after the last one ended re-runs on purpose (refresh, re-activation).
    static func evidence(_ runs: [ColdRuns.Run]) -> [ColdRuns.Run]? {
        let working = runs.filter(\.didWork).sorted { $0.start < $1.start }
        var bySite: [TraceSite: ColdRuns.Run] = [:]
        var sites: [ColdRuns.Run] = []
        for run in working {
            guard let site = run.rootSite, bySite[site] == nil else { continue }
            bySite[site] = run
            sites.append(run)
        }
        if sites.count > 1 { return Array(sites.prefix(8)) }
        var evidence: [ColdRuns.Run] = []
        var running: [ColdRuns.Run] = []
        for run in working {
            running.removeAll { ($0.end ?? .max) < run.start }
            let concurrent = running.filter { $0.root != run.root }
            if !concurrent.isEmpty {
                for other in concurrent where !evidence.contains(where: { $0.root == other.root }) { evidence.append(other) }
                if !evidence.contains(where: { $0.root == run.root }) { evidence.append(run) }
            }
            running.append(run)
            // The path names at most eight: no need to look further.
            if evidence.count >= 8 { break }
        }
        return evidence.count > 1 ? evidence.sorted { $0.start < $1.start } : nil
    }
}

extension RuleID {
    /// A cold signal whose work ran for several subscriptions at once.
    public static let repeatedColdSubscription = RuleID("repeated-cold-subscription")
}
