import SignalScopeAnalysis

/// SARIF 2.1.0, the format GitHub code scanning reads: every rule with its help, and a
/// result per finding with its level, a physical location relative to the current
/// directory, and its proving steps as a code flow, each step at the site it names. Levels
/// are the severities' names, which SARIF shares. Baseline findings carry
/// `baselineState: unchanged` and level `note`.
public struct SARIFFormat: FindingsFormat {
    public let name = "sarif"

    public init() {}

    /// The rule's section of `docs/analyzers.md`, whose heading is the rule and its severity
    /// (``## `retain-cycle` (error)``), which GitHub's anchor spells `retain-cycle-error`.
    public static func helpURI(for rule: RuleID) -> String {
        "https://github.com/signalscope/signalscope/blob/main/docs/analyzers.md#\(rule.rawValue)-\(rule.severity.rawValue)"
    }

    public func render(_ report: CheckReport, _ options: FindingsFormatOptions) -> String {
        let rules: [[String: Any]] = RuleID.allCases.map { rule in
            [
                "id": rule.rawValue,
                "name": rule.rawValue,
                "shortDescription": ["text": rule.summary],
                "defaultConfiguration": ["level": rule.severity.rawValue],
                "helpUri": Self.helpURI(for: rule),
            ]
        }
        let results: [[String: Any]] = report.entries.map { entry in
            let finding = entry.finding
            var result: [String: Any] = [
                "ruleId": finding.rule.rawValue,
                "ruleIndex": RuleID.allCases.firstIndex(of: finding.rule) ?? 0,
                "level": entry.isBaseline ? "note" : finding.severity.rawValue,
                "message": ["text": entry.details],
                "locations": [[
                    "physicalLocation": [
                        "artifactLocation": ["uri": entry.path, "uriBaseId": "%SRCROOT%"],
                        "region": ["startLine": max(finding.location.line, 1)],
                    ]
                ]],
                "partialFingerprints": ["signalscope/v2": finding.fingerprint],
            ]
            if !entry.located.isEmpty { result["codeFlows"] = [["threadFlows": [["locations": entry.located.map(Self.flowLocation)]]]] }
            if entry.isBaseline { result["baselineState"] = "unchanged" }
            if finding.count > 1 { result["occurrenceCount"] = finding.count }
            return result
        }
        return jsonText([
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [[
                "tool": ["driver": ["name": "signalscope", "informationUri": "https://github.com/signalscope/signalscope", "rules": rules]],
                "originalUriBaseIds": ["%SRCROOT%": ["uri": "./"]],
                "invocations": [[
                    "executionSuccessful": report.limitations.isEmpty,
                    "toolExecutionNotifications": report.limitations.map { ["level": "warning", "message": ["text": $0]] },
                ]],
                "results": results,
            ]],
        ])
    }

    /// A proving step as a step of SARIF's code flow: its words, and its place when it names one.
    private static func flowLocation(_ step: LocatedStep) -> [String: Any] {
        var location: [String: Any] = ["message": ["text": step.text]]
        if let path = step.path, let line = step.line {
            location["physicalLocation"] = ["artifactLocation": ["uri": path, "uriBaseId": "%SRCROOT%"], "region": ["startLine": max(line, 1)]]
        }
        return ["location": location]
    }
}
