/// GitHub Actions workflow commands (`::error file=…,line=…,title=…::…`), which put each
/// finding as an annotation on the pull request's changed line.
enum GitHubReport {
    static func render(_ report: CheckReport) -> String {
        report.entries.map { entry in
            let finding = entry.finding
            let command = entry.isBaseline || finding.severity == .note ? "notice" : finding.severity.rawValue
            let title = "signalscope \(finding.rule)\(entry.isBaseline ? " (baseline)" : "")"
            return "::\(command) file=\(property(entry.path)),line=\(finding.location.line),title=\(property(title))::\(data(entry.details))\n"
        }.joined()
            + report.limitations.map { "::\(report.isIncompleteFailing ? "error" : "warning") title=signalscope incomplete::\(data($0))\n" }.joined()
    }

    /// Escaping for a workflow command's message, as the runner documents it.
    private static func data(_ text: String) -> String {
        text.replacing("%", with: "%25").replacing("\r", with: "%0D").replacing("\n", with: "%0A")
    }

    /// Escaping for a workflow command's property values, which also reserve `:` and `,`.
    private static func property(_ text: String) -> String {
        data(text).replacing(":", with: "%3A").replacing(",", with: "%2C")
    }
}
