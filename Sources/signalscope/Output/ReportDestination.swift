import SignalScopeTools

/// One `--format F[=path]`: a format (``FindingsFormats``) and where to write it (standard
/// output when no path).
struct ReportDestination {
    let format: any FindingsFormat
    let path: String?

    init(parsing argument: String) throws {
        let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
        guard let format = FindingsFormats.named(parts.first ?? "") else {
            let known = FindingsFormats.all.map(\.name).joined(separator: ", ")
            throw CLIError("unknown format '\(parts.first ?? "")' (expected one of: \(known), optionally followed by =path)")
        }
        self.format = format
        path = parts.count > 1 && !parts[1].isEmpty ? parts[1] : nil
    }
}
