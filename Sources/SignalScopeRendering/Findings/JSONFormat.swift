import SignalScopeAnalysis

/// The machine-readable report; its shape is documented in `docs/cli.md` and versioned.
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

    private func subject(_ subject: FindingSubject) -> [String: Any] {
        var fields: [String: Any] = ["kind": subject.kind.rawValue, "name": subject.name]
        if let file = subject.file { fields["file"] = file }
        if let function = subject.function { fields["function"] = function }
        return fields
    }
}
