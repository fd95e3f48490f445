import SignalScopeTracing

/// A user object is alive at the end only because closures of live signals hold it (every
/// strong reference to it comes from them), but those signals are themselves held from
/// outside, so it is not a definite leak.
struct KeptAliveBySignal: Analyzer {
    static let rule = RuleID.keptAliveBySignal
    static let severity = Severity.warning
    static let summary = "An object is alive only because closures of live signals capture it."

    func analyze(_ model: inout LeakModel) -> [Finding] {
        var findings: [Finding] = []
        for object in model.heap.objects.keys.sorted() where model.isUser(object) && !model.claimed.contains(object) {
            guard let keepers = model.runtimeKeepers(of: object), model.concernsThisTrace(keepers.union([object])) else {
                continue
            }
            let name = model.objectLabel(object)
            let chains = keepers.sorted().map { model.chain(from: $0, to: object) }.filter { !$0.isEmpty }
            var description = PathDescription(model)
            let path = chains.flatMap { description.lines($0) }
            findings.append(Finding(
                rule: Self.rule, severity: Self.severity,
                message: "\(name) is alive only because live signals capture it",
                subject: model.objectsSubject([object]),
                location: chains.lazy.compactMap(model.fixSite).first?.site ?? model.site(near: keepers.sorted()),
                steps: path + ["nothing else holds \(name)"],
                hint: "capture [weak self], or end the subscriptions when \(name) goes away",
                entities: model.traceEntities([object] + keepers.sorted()), evidence: chains.flatMap { $0 }))
            model.claimed.insert(object)
        }
        return findings
    }
}

extension RuleID {
    /// An object only live signals hold, which are held from outside.
    public static let keptAliveBySignal = RuleID("kept-alive-by-signal")
}
