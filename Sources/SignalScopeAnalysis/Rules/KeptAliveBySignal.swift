import SignalScopeTracing

/// A user object is alive at the end only because closures of live signals hold it (every
/// strong reference to it comes from them), those signals are themselves held from outside,
/// and nothing the program still uses reaches it but through a signal's subscriber list
/// (``LeakModel/inUse(_:)``): what keeps it outlived its purpose. What it keeps alive leaks
/// with it, in the same finding.
struct KeptAliveBySignal: Analyzer {
    static let rule = RuleID.keptAliveBySignal
    static let severity = Severity.warning
    static let summary = "An object is alive only because closures of live signals capture it."

    func analyze(_ model: inout LeakModel) -> [Finding] {
        var findings: [Finding] = []
        let candidates = model.heap.objects.keys.filter { model.isUser($0) && !model.inUse($0) }
        // An owner before what it keeps, which leaks with it and is named in its finding.
        for object in model.leakOrder(candidates) where !model.claimed.contains(object) {
            guard let keepers = model.runtimeKeepers(of: object), model.concernsThisTrace(keepers.union([object])) else {
                continue
            }
            let name = model.objectLabel(object)
            let chains = keepers.sorted().map { model.chain(from: $0, to: object) }.filter { !$0.isEmpty }
            let shown = chains.prefix(LeakModel.instancesShown)
            var description = PathDescription(model, blamed: shown.compactMap(\.last))
            var path = shown.flatMap { description.lines($0) }
            if chains.count > shown.count { path.append("and \(chains.count - shown.count) more like it") }
            let kept = model.keptAlive(by: [object])
            path.append("nothing the program still uses reaches \(model.label(.object(object))) but through a signal's subscriber list or a subscription it cannot end: every strong reference to it comes from closures of live signals")
            path += model.keptAliveLine(kept, except: [object])
            findings.append(model.claim(kept, by: Finding(
                rule: Self.rule, severity: Self.severity,
                message: "\(name) is alive only because live signals capture it",
                subject: model.objectsSubject([object]),
                location: chains.lazy.compactMap(model.fixSite).first?.site ?? model.site(near: keepers.sorted()),
                steps: path,
                hint: "capture [weak self], or end the subscriptions when \(name) goes away",
                entities: model.traceEntities([object] + keepers.sorted()), evidence: chains.flatMap { $0 })))
        }
        return findings
    }
}

extension RuleID {
    /// An object only live signals hold, which are held from outside.
    public static let keptAliveBySignal = RuleID("kept-alive-by-signal")
}
