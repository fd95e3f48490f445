import Foundation
import LeakCorpus
import Testing

/// The growth scenarios as a program runs them under `signalscope check`: five repetitions,
/// `Tracer.checkpoint("screen closed")` after each (`signalscope-corpus --repeat`). Each
/// leaky one is one finding at its fix line, with its counts; its fixed twin, a cache filled
/// once and a bounded pool, none.
@Suite("check compares the checkpoints a program marks", .timeLimit(.minutes(10)))
struct GrowthCheckTests {
    func check(_ scenario: GrowthScenario, fixed: Bool) throws -> (status: Int32, findings: [[String: Any]], output: String) {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        let result = try cli.signalscope(
            ["check", "--format", "json=report.json", "--", CLIRunner.product("signalscope-corpus"), "--repeat", scenario.rawValue]
                + (fixed ? ["--fixed"] : []))
        let data = try Data(contentsOf: URL(fileURLWithPath: cli.path("report.json")))
        let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return (result.status, try #require(report["findings"] as? [[String: Any]]), result.standardOutput + result.standardError)
    }

    @Test("A leaky scenario fails check with one grows-per-repetition finding at its fix line", arguments: GrowthScenario.allCases.filter(\.leaks))
    func leakyScenarioFails(scenario: GrowthScenario) throws {
        let (status, findings, output) = try check(scenario, fixed: false)
        // Ground truth, as the program saw it.
        #expect(output.contains(scenario == .sessionSubscriptions ? "0 screens alive; 5 observers saw a login" : "5 screens alive"), "\(output)")
        #expect(status == 2)
        let expected = try #require(scenario.expected)
        #expect(CLIRunner.ruleAndLine(of: findings) == ["\(expected.rule):\(expected.line)"])
        let path = findings.first?["path"] as? [String] ?? []
        #expect(path.contains { $0.contains("alive at each \"screen closed\"") && $0.contains("1, 2, 3, 4, 5") }, "\(path)")
    }

    @Test("The fixed twins, a cache filled once and a bounded pool pass", arguments: GrowthScenario.allCases)
    func cleanScenarioPasses(scenario: GrowthScenario) throws {
        let (status, findings, output) = try check(scenario, fixed: true)
        #expect(status == 0, "\(output)")
        #expect(findings.isEmpty, "\(findings)")
    }
}
