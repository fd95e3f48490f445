import SignalScopeAnalysis

/// The machine-readable report; its shape is `docs/findings.schema.json` (described in
/// `docs/cli.md`), and versioned.
public struct JSONFormat: FindingsFormat {
    public let name = "json"

    public init() {}

    public func render(_ report: CheckReport, _ options: FindingsFormatOptions) -> String {
        let findings: [[String: Any]] = report.entries.map { entry in
            let finding = entry.finding
            return [
                "rule": finding.rule.rawValue,
                "severity": finding.severity.rawValue,
                "message": finding.message,
                "fingerprint": finding.fingerprint,
                "subject": subject(finding.subject),
                "location": ["file": entry.path, "line": finding.location.line, "function": finding.location.function],
                "path": entry.steps,
                "suspectSteps": entry.suspectSteps,
                "steps": entry.located.map(step),
                "entities": finding.entities.map(\.description),
                "hint": finding.hint,
                "count": finding.count,
                "baseline": entry.isBaseline,
                "failing": entry.isFailing,
            ]
        }
        return jsonText([
            "version": 1,
            "findings": findings,
            "summary": [
                "errors": report.count(.error),
                "warnings": report.count(.warning),
                "notes": report.count(.note),
                "failing": report.failing.count,
                "incomplete": report.isIncompleteFailing,
            ],
            "warnings": report.traceWarnings,
            "limitations": report.limitations,
        ])
    }

    /// A step as data, so that a consumer need not parse its words: the sites and the trace's
    /// entities it names, and the strong references it crosses, each with its relation to its
    /// holder (``HeapRelation``; ids as `export --jsonl` writes them).
    private func step(_ located: LocatedStep) -> [String: Any] {
        var fields: [String: Any] = [
            "text": located.text,
            "sites": located.sites.map { ["file": $0.path, "line": $0.line] },
            "names": located.step.parts.compactMap { part -> [String: Any]? in
                guard case .name(let name, let entity) = part else { return nil }
                return ["name": name, "entity": entity.description]
            },
            "references": located.step.crossings.map { crossing in
                let reference = crossing.reference
                var fields: [String: Any] = [
                    "from": reference.from.description, "to": reference.to.description, "kind": reference.kind.description,
                    "path": reference.path, "relation": crossing.relation.name,
                ]
                // A closure's context is not an object of its own: the reference names the closure.
                if let closure = reference.closure {
                    var described: [String: String] = [:]
                    if let role = closure.role { described["role"] = role }
                    if let name = closure.name { described["name"] = name }
                    fields["closure"] = described
                }
                return fields
            },
        ]
        if let mark = located.mark { fields["mark"] = mark.rawValue }
        return fields
    }

    private func subject(_ subject: FindingSubject) -> [String: Any] {
        var fields: [String: Any] = ["kind": subject.kind.rawValue, "name": subject.name]
        if let file = subject.file { fields["file"] = file }
        if let function = subject.function { fields["function"] = function }
        return fields
    }
}
