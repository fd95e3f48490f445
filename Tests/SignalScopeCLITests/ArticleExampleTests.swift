import Foundation
import Testing

/// The leaky examples from the RAC articles: each must report exactly its planted finding,
/// at its line, and its `--fixed` variant nothing at all.
@Suite("Leaky examples and their fixes")
struct ArticleExampleTests {
    static let leakyExamples = ["ObserveSelfLeak", "SubjectNeverCompleted", "CellReuseLeak", "InfiniteSignalDropped", "ColdSignalTwice"]

    func findings(of example: String, _ arguments: String...) throws -> (status: Int32, findings: [[String: Any]]) {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        let result = try cli.signalscope(
            ["check", "--fail-on", "warning", "--format", "json=report.json", "--", CLIRunner.product(example)] + arguments)
        let data = try Data(contentsOf: URL(fileURLWithPath: cli.path("report.json")))
        let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return (result.status, try #require(report["findings"] as? [[String: Any]]))
    }

    @Test(arguments: leakyExamples)
    func leakyVariantReportsExactlyItsPlantedFinding(example: String) throws {
        let markers = try CLIRunner.plantedMarkers(in: example)
        #expect(markers.count == 1, "each example plants one leak")
        let leaky = try findings(of: example)
        #expect(leaky.status == 2)
        #expect(CLIRunner.ruleAndLine(of: leaky.findings) == markers)
    }

    @Test(arguments: leakyExamples)
    func fixedVariantReportsNothing(example: String) throws {
        let fixed = try findings(of: example, "--fixed")
        #expect(fixed.status == 0)
        #expect(fixed.findings.isEmpty, "\(fixed.findings)")
    }
}
