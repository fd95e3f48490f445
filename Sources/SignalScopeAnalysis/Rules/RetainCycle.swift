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
        for (index, cycle) in model.cycles.enumerated() where cycle.contains(where: { !model.claimed.contains($0) }) {
            let members = Set(cycle)
            // What a user would recognise: their own objects, or else the runtime's entities.
            let landmarks = cycle.filter { model.isUser($0) && !model.claimed.contains($0) }
            let anchors = landmarks.isEmpty ? cycle.filter { model.isLandmark($0) && !model.claimed.contains($0) } : landmarks
            guard let start = anchors.first, model.concernsThisTrace(cycle) else { continue }
            let blame = model.blame(ofCycle: index)
            let around = blame?.around ?? model.path(from: start, to: { $0 == start }, through: members.contains)
            guard !around.isEmpty else { continue }
            let names = Set(cycle.filter(model.isUser).map(model.objectLabel)).sorted()
            let who = names.isEmpty ? "signals and subscriptions" : names.joined(separator: " and ")
            var description = PathDescription(model, blamed: blame?.references ?? [])
            var path = description.lines(around)
            path.append("nothing else holds them: every strong reference to them comes from this cycle")
            path += model.dependentsLine(cycle)
            var location: TraceSite?
            var hint = "break the cycle: make one of these references weak (a back-reference, or self in a closure), or end the subscription when its owner goes away"
            if let blame, let first = blame.closures.first {
                let named = first.closure.role.map { "the \($0)" } ?? first.closure.name ?? "the closure the path names"
                path += model.alsoCapturedLine(blame.closures.dropFirst().map { ($0.site, $0.closure) }, name: model.label(.object(blame.owner)))
                hint = "capture [weak self] (or the object it captures) weakly in \(named)\(blame.closures.count > 1 ? " and in each other closure named above" : ""), or make another reference of the cycle weak"
                location = first.site
            } else if let blame, let (holder, property) = blame.property {
                let name = "\(model.objectLabel(holder)).\(property)"
                path.append("\(model.label(.object(holder))).\(property) leads back to \(model.label(.object(blame.owner))), which holds \(model.label(.object(holder))) through this cycle: the reference to make weak")
                hint = "make \(name) weak (or unowned), or break another reference of the cycle"
                location = model.declarationSite(of: holder)
            } else if let fix = model.fixSite(of: around) {
                let named = fix.closure.role.map { "the \($0)" } ?? fix.closure.name ?? "the closure the path names"
                hint = "capture [weak self] (or the object it captures) weakly in \(named), or make another reference of the cycle weak"
                location = fix.site
            } else if let cut = model.cut(of: around) {
                // No closure captures anything here: the fix is a stored property's.
                let property = "\(model.objectLabel(cut.holder)).\(cut.reference.path)"
                path.append("\(model.label(.object(cut.holder))).\(cut.reference.path) leads back to \(model.label(.object(cut.target))), which holds \(model.label(.object(cut.holder))) through this cycle: the reference to make weak")
                hint = "make \(property) weak (or unowned), or break another reference of the cycle"
                location = model.declarationSite(of: cut.holder)
            } else if names.isEmpty {
                hint = "no reference in the program's own code closes this cycle: it runs through signals and subscriptions only; end the subscriptions (dispose them, or complete their sources) when their owner goes away"
            }
            findings.append(model.claim(cycle, by: Finding(
                rule: Self.rule, severity: Self.severity,
                message: names.count == 1 ? "\(who) keeps itself alive through a cycle of strong references" : "\(who) keep each other alive, and nothing else holds them",
                subject: names.isEmpty ? FindingSubject(kind: .objects, name: who) : model.objectsSubject(cycle.filter(model.isUser)),
                location: location ?? model.site(near: cycle), steps: path,
                hint: hint,
                entities: model.traceEntities(cycle + model.dependents(of: cycle)), evidence: around),
                keptWithThem: model.dependents(of: cycle)))
        }
        return findings
    }
}

extension RuleID {
    /// Any other cycle of strong references that nothing else holds.
    public static let retainCycle = RuleID("retain-cycle")
}
