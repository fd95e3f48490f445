import SignalScopeTracing

/// Any other cycle of strong references that nothing outside holds: through other objects
/// (a screen storing a child whose observer captures the screen, a router holding the
/// coordinator that owns it), collections, commands or signals.
struct RetainCycle: Analyzer {
    static let rule = RuleID.retainCycle
    static let severity = Severity.error
    static let summary = "Objects, signals and subscriptions keep each other alive through strong references, and nothing else holds them."

    func analyze(_ model: inout LeakModel) -> [Finding] {
        var findings: [Finding] = []
        for cycle in model.cycles where cycle.contains(where: { !model.claimed.contains($0) }) {
            let members = Set(cycle)
            // What a user would recognise: their own objects, or else the runtime's entities.
            let landmarks = cycle.filter { model.isUser($0) && !model.claimed.contains($0) }
            let anchors = landmarks.isEmpty ? cycle.filter { model.isLandmark($0) && !model.claimed.contains($0) } : landmarks
            guard let start = anchors.first, model.concernsThisTrace(cycle) else { continue }
            let around = model.path(from: start, to: { $0 == start }, through: members.contains)
            guard !around.isEmpty else { continue }
            let names = Set(cycle.filter(model.isUser).map(model.objectLabel)).sorted()
            let who = names.isEmpty ? "signals and subscriptions" : names.joined(separator: " and ")
            var description = PathDescription(model)
            var path = description.lines(around)
            path.append("nothing else holds them: every strong reference to them comes from this cycle")
            path += model.dependentsLine(cycle)
            findings.append(Finding(
                rule: Self.rule, severity: Self.severity,
                message: names.count == 1 ? "\(who) keeps itself alive through a cycle of strong references" : "\(who) keep each other alive, and nothing else holds them",
                subject: names.isEmpty ? FindingSubject(kind: .objects, name: who) : model.objectsSubject(cycle.filter(model.isUser)),
                location: model.fixSite(of: around)?.site ?? model.site(near: cycle), path: path,
                hint: "break the cycle: make one of these references weak (a back-reference, or self in a closure), or end the subscription when its owner goes away",
                entities: model.traceEntities(cycle + model.dependents(of: cycle)), evidence: around))
            model.claimed.formUnion(cycle)
        }
        return findings
    }
}
