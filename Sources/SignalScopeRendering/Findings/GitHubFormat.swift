import SignalScopeAnalysis

/// GitHub Actions workflow commands (`::error file=…,line=…,title=…::…`), which put each
/// finding as an annotation on the pull request's changed line.
public struct GitHubFormat: FindingsFormat {
    public let name = "github"

    public init() {}

    public func render(_ report: CheckReport, _ options: FindingsFormatOptions) -> String {
        report.entries.map { entry in
            let finding = entry.finding
            let command = entry.isBaseline || finding.severity == .note ? "notice" : finding.severity.rawValue
            let title = "signalscope \(finding.rule)\(entry.isBaseline ? " (baseline)" : "")"
            return "::\(command) file=\(WorkflowCommandText.property(entry.path)),line=\(finding.location.line),title=\(WorkflowCommandText.property(title))::\(WorkflowCommandText.message(entry.details))\n"
        }.joined()
            + report.limitations.map { "::\(report.isIncompleteFailing ? "error" : "warning") title=signalscope incomplete::\(WorkflowCommandText.message($0))\n" }.joined()
    }
}
