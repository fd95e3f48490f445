import SignalScopeTracing

/// A captured object that is alive at the end only because live subscriptions' observers
/// capture it.
struct KeptAliveBySignal: Analyzer {
    static let rule = RuleID.keptAliveBySignal

    func analyze(_ model: inout LeakModel) -> [Finding] {
        var findings: [Finding] = []
        for object in model.trace.objects.values.sorted(by: { $0.id < $1.id })
        where model.alive.contains(.object(object.id)) && !model.claimed.contains(.object(object.id)) {
            let capturers = model.capturers(of: .object(object.id))
            guard !capturers.isEmpty,
                (model.retainCount[.object(object.id)] ?? 0)
                    <= model.references(to: .object(object.id), from: capturers.map { .subscription($0) })
            else { continue }
            let name = model.objectLabel(object.id)
            findings.append(Finding(
                rule: Self.rule, severity: .warning,
                message: "\(name) is alive only because live subscriptions capture it",
                location: model.site(of: .object(object.id)),
                path: capturers.map { "\(model.subscriptionLabel($0)) captures \(name) strongly" },
                hint: "capture [weak self], or end the subscriptions when \(name) goes away",
                entities: [.object(object.id)] + capturers.map { .subscription($0) }))
            model.claimed.insert(.object(object.id))
        }
        return findings
    }
}
