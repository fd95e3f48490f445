import Foundation

/// The formats `check --format` writes; one file per format in this folder, but `html`,
/// the interactive report, which draws a whole trace rather than the findings alone
/// (``ReportPageMaking``).
enum ReportFormat: String, CaseIterable {
    case text, json, junit, sarif, github, html

    /// Renders `report` in this format; `html` renders the page `page` makes.
    func render(_ report: CheckReport, colored: Bool, page: () throws -> String) rethrows -> String {
        switch self {
        case .text: TextReport.render(report, colored: colored)
        case .json: JSONReport.render(report)
        case .junit: JUnitReport.render(report)
        case .sarif: SARIFReport.render(report)
        case .github: GitHubReport.render(report)
        case .html: try page()
        }
    }
}

/// One `--format F[=path]`: a format and where to write it (standard output when no path).
struct ReportDestination {
    let format: ReportFormat
    let path: String?

    init(parsing argument: String) throws {
        let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
        guard let format = ReportFormat(rawValue: parts[0]) else {
            let known = ReportFormat.allCases.map(\.rawValue).joined(separator: ", ")
            throw CLIError("unknown format '\(parts[0])' (expected one of: \(known), optionally followed by =path)")
        }
        self.format = format
        path = parts.count > 1 && !parts[1].isEmpty ? parts[1] : nil
    }
}

/// Encodes a JSON object tree (dictionaries, arrays, strings, numbers) with sorted keys.
func jsonText(_ object: Any) -> String {
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
    return String(decoding: data, as: UTF8.self) + "\n"
}
