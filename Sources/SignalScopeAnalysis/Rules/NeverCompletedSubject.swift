import SignalScopeTracing

/// A subject that never sent a terminal event still has live subscribers, and nothing
/// outside itself and its subscriptions holds it: it and everything its subscribers
/// capture leak (the "a subject must send completed" trap).
struct NeverCompletedSubject: Analyzer {
    static let rule = RuleID.neverCompletedSubject

    func analyze(_ model: inout LeakModel) -> [Finding] {
        var findings: [Finding] = []
        for set in model.stronglyConnectedSets() where model.isUnreachable(Set(set)) {
            for case .node(let id) in set {
                guard let node = model.trace.nodes[id], [.subject, .replaySubject, .behaviorSubject].contains(node.kind),
                    node.terminatedAtEnd == false, !model.claimed.contains(.node(id))
                else { continue }
                let subscribers = set.filter { if case .subscription = $0 { true } else { false } }
                guard !subscribers.isEmpty else { continue }
                let captured = subscribers.flatMap { (model.edges[$0] ?? [:]).keys }.filter {
                    if case .object = $0 { true } else { false }
                }
                var path = ["\(model.nodeLabel(id)) never sent completed or error"]
                path += subscribers.map { "it keeps \(model.label($0))" }
                path += captured.map { "whose observer captures \(model.label($0))" }
                path.append("nothing else holds the subject: all \(model.retainCount[.node(id)] ?? 0) references to it come from its own subscriptions")
                findings.append(Finding(
                    rule: Self.rule, severity: .error,
                    message: "\(model.nodeLabel(id)) was never completed and leaks with its \(subscribers.count) subscriber(s)",
                    location: node.site, path: path,
                    hint: "send completed (or error) when its owner goes away, for example in deinit",
                    entities: set + captured))
                model.claimed.formUnion(set)
                model.claimed.formUnion(captured)
            }
        }
        return findings
    }
}
