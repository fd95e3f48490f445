import SignalScopeTracing

/// Any other cycle of strong references among live entities that nothing outside holds.
struct RetainCycle: Analyzer {
    static let rule = RuleID.retainCycle

    func analyze(_ model: inout LeakModel) -> [Finding] {
        var findings: [Finding] = []
        for set in model.stronglyConnectedSets() {
            let members = Set(set)
            let isCycle = set.count > 1 || (model.edges[set[0]]?[set[0]] ?? 0) > 0
            guard isCycle, members.isDisjoint(with: model.claimed), model.isUnreachable(members) else { continue }
            findings.append(Finding(
                rule: Self.rule, severity: .error,
                message: "\(set.count) entities keep each other alive and nothing else holds them",
                location: model.site(of: set.first { if case .subscription = $0 { true } else { false } } ?? set[0]),
                path: set.map { "\(model.label($0)) (retain count \(model.retainCount[$0] ?? 0))" },
                hint: "break the cycle: capture weakly, or end the subscription when its owner goes away",
                entities: set))
            model.claimed.formUnion(members)
        }
        return findings
    }
}
