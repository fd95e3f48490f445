import SignalScopeAnalysis

/// The human-readable report: one block per finding with its reference path drawn step by
/// step and the usual fix, then a summary line. Colour only when writing to a terminal.
public struct TextFormat: FindingsFormat {
    public let name = "text"
    public let usesColor = true

    public init() {}

    public func render(_ report: CheckReport, _ options: FindingsFormatOptions) -> String {
        let colored = options.colored
        func paint(_ text: String, _ code: String) -> String {
            colored ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
        }
        // Everything but the report's own words comes from the trace: sanitized before painting.
        let safe = TerminalText.sanitized
        var lines: [String] = []
        for entry in report.entries {
            let finding = entry.finding
            let severityColor = switch finding.severity {
            case .error: "1;31"
            case .warning: "1;33"
            case .note: "1;36"
            }
            let times = finding.count > 1 ? " (×\(finding.count))" : ""
            let baseline = entry.isBaseline ? paint(" [baseline]", "2") : ""
            lines.append(
                "\(paint("\(safe(entry.path)):\(finding.location.line)", "1")): "
                    + "\(paint(finding.severity.rawValue, severityColor)): [\(finding.rule)] \(safe(finding.message))\(times)\(baseline)")
            let suspects = Set(entry.suspectSteps)
            for (index, step) in entry.steps.enumerated() {
                let suspect = suspects.contains(index) ? paint("  ← suspect: the reference to cut", "31") : ""
                lines.append("    \(index == 0 ? "  " : "→ ")\(safe(step))\(suspect)")
            }
            lines.append("    \(paint("fix:", "32")) \(safe(finding.hint))")
            lines.append("")
        }
        for limitation in report.limitations {
            lines.append("\(paint("incomplete:", report.isIncompleteFailing ? "1;33" : "2")) \(safe(limitation))")
        }
        if !report.limitations.isEmpty { lines.append("") }
        let failing = report.failing.count
        let baselined = report.entries.count(where: \.isBaseline)
        func counted(_ severity: Severity) -> String {
            let count = report.count(severity)
            return "\(count) \(severity.rawValue)\(count == 1 ? "" : "s")"
        }
        var summary = "\(counted(.error)), \(counted(.warning)), \(counted(.note))"
        if baselined > 0 { summary += " (\(baselined) in baseline)" }
        if failing > 0 {
            summary += "; check failed (\(failing) failing)"
        } else if report.isIncompleteFailing {
            summary += "; check incomplete: leaks may be missing"
        } else {
            summary += "; check passed"
        }
        lines.append(paint(summary, failing == 0 && !report.isIncompleteFailing ? "32" : "1;31"))
        return lines.joined(separator: "\n") + "\n"
    }
}
