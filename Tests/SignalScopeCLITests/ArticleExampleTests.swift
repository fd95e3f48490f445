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
    static let leakyExamples = [
        "ObserveSelfLeak", "SubjectNeverCompleted", "CellReuseLeak", "InfiniteSignalDropped", "ColdSignalTwice",
    ] + combineExamples
    /// The Combine example, written on OpenCombine and traced through its adapter; a build
    /// without the OpenCombineAdapter trait (the quick `make test`) has no OpenCombine to run.
    #if OpenCombineAdapter
    static let combineExamples = ["CombineSearch"]
    #else
    static let combineExamples: [String] = []
    #endif

    /// View models ported line by line from ReactiveSwift, RxSwift and Combine apps
    /// (docs/porting.md): clean as written, and `--leaky` drops `[weak self]` in one closure.
    static let portedExamples = ["PortedFromReactiveSwift", "PortedFromRxSwift", "PortedFromCombine"]

    func findings(of example: String, _ arguments: String...) throws -> (status: Int32, findings: [[String: Any]]) {
        try findingsAndOutput(of: example, arguments).findings
    }

    func findingsAndOutput(of example: String, _ arguments: [String]) throws
        -> (findings: (status: Int32, findings: [[String: Any]]), output: String)
    {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        let result = try cli.signalscope(
            ["check", "--fail-on", "warning", "--format", "json=report.json", "--", CLIRunner.product(example)] + arguments)
        let data = try Data(contentsOf: URL(fileURLWithPath: cli.path("report.json")))
        let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return ((result.status, try #require(report["findings"] as? [[String: Any]])), result.standardOutput + result.standardError)
    }

    @Test("A view model ported from another library runs clean: freed when dropped, and no finding", arguments: portedExamples)
    func portedViewModelIsClean(example: String) throws {
        let (clean, output) = try findingsAndOutput(of: example, [])
        #expect(output.contains(" freed"), "the view model was freed: \(output)")
        #expect(clean.status == 0)
        #expect(clean.findings.isEmpty, "\(clean.findings)")
    }

    @Test("A ported view model with one strong self stays alive, and check names that closure's line", arguments: portedExamples)
    func portedViewModelLeakIsFoundAtItsLine(example: String) throws {
        let markers = try CLIRunner.plantedMarkers(in: example)
        #expect(markers.count == 1, "each example plants one leak")
        let (leaky, output) = try findingsAndOutput(of: example, ["--leaky"])
        #expect(!output.contains(" freed"), "the view model stayed alive: \(output)")
        #expect(leaky.status == 2)
        #expect(CLIRunner.ruleAndLine(of: leaky.findings) == markers)
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
