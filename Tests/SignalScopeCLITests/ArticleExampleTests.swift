import Foundation
import Testing

/// The examples from the RAC articles, traced by `signalscope check`: the clean patterns
/// report nothing; each leaky trap reports exactly its planted finding, at its line, and
/// its `--fixed` variant nothing at all.
@Suite("Examples from the RAC articles", .timeLimit(.minutes(10)))
struct ArticleExampleTests {
    static let cleanExamples = [
        "Countdown", "SearchHints", "UsernameCheck", "TokenRefresh", "CacheThenNetwork", "LikeCommand", "ViewModelErrors",
        "ZipRefresh", "DelegateSignal",
    ]
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

    @Test("A repeated cold subscription's path names where each subscription was made, though check keeps only live entities")
    func repeatedColdSubscriptionNamesItsSites() throws {
        let leaky = try findings(of: "ColdSignalTwice")
        let steps = try #require(leaky.findings.first?["path"] as? [String])
        #expect(steps.filter { $0.hasPrefix("subscribed at ColdSignalTwice/main.swift:") }.count == 2, "\(steps)")
    }

    @Test(arguments: leakyExamples)
    func fixedVariantReportsNothing(example: String) throws {
        let fixed = try findings(of: example, "--fixed")
        #expect(fixed.status == 0)
        #expect(fixed.findings.isEmpty, "\(fixed.findings)")
    }

    @Test(arguments: cleanExamples)
    func cleanPatternReportsNothing(example: String) throws {
        #expect(try CLIRunner.plantedMarkers(in: example).isEmpty)
        let clean = try findings(of: example)
        #expect(clean.status == 0)
        #expect(clean.findings.isEmpty, "\(clean.findings)")
    }
}
