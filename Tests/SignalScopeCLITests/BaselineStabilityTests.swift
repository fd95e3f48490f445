import Foundation
import Testing

/// A baseline accepts findings by fingerprint, which holds no line and no count: the same
/// findings after an edit that moved them, added lines above them or repeated them still
/// match, and only a finding about something else fails the gate.
@Suite("Baselines survive edits", .timeLimit(.minutes(10)))
struct BaselineStabilityTests {
    /// The same program, edited: `shift` lines added above everything, the cold signal
    /// subscribed `subscriptions` times at once, each run sending its own response, and
    /// optionally a new late send in another function.
    static func trace(shift: UInt32, subscriptions: Int, newProblem: Bool = false) -> CraftedLog {
        var log = CraftedLog()
        log.node(1, name: "signal", file: "App/Search.swift", function: "results(for:)", line: 10 + shift, kind: 1, traits: 1)
        let ids = (1...subscriptions).map { UInt64($0) }
        for (index, id) in ids.enumerated() {
            log.subscribe(id, to: 1, file: "App/Search.swift", function: "refresh()", line: 30 + shift + UInt32(index))
        }
        for id in ids { log.next(id, "results", inCreationBlock: true) }
        for id in ids { log.disposed(id) }
        log.node(2, name: "subject", file: "App/Session.swift", function: "init()", line: 5 + shift)
        log.named(2, "events")
        log.violation(node: 2, stack: "Session.close() (App/Session.swift:\(40 + shift))", file: "App/Session.swift",
                      function: "close()", line: 40 + shift)
        if newProblem {
            log.violation(node: 2, stack: "Session.reset() (App/Session.swift:60)", file: "App/Session.swift",
                          function: "reset()", line: 60)
        }
        log.snapshot()
        log.end()
        return log
    }

    @Test("Moving code, adding lines and repeating a problem keep every finding in the baseline; a new problem fails")
    func baselineSurvivesEdits() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        try Self.trace(shift: 0, subscriptions: 2).write(to: cli.path("before.sslog"))
        try Self.trace(shift: 7, subscriptions: 5).write(to: cli.path("after.sslog"))
        try Self.trace(shift: 7, subscriptions: 5, newProblem: true).write(to: cli.path("new.sslog"))

        let unaccepted = try cli.signalscope("check", "before.sslog", "--fail-on", "warning", "--format", "json")
        #expect(unaccepted.status == 2, "both findings fail without a baseline: \(unaccepted.standardOutput)")
        let written = try cli.signalscope("check", "before.sslog", "--fail-on", "never", "--write-baseline", "baseline.json")
        #expect(written.status == 0, "\(written.standardError)")

        let edited = try cli.signalscope("check", "after.sslog", "--fail-on", "warning", "--baseline", "baseline.json", "--format", "json")
        #expect(edited.status == 0, "the edit moved and repeated the findings, nothing new: \(edited.standardOutput)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(edited.standardOutput.utf8)) as? [String: Any])
        let findings = try #require(report["findings"] as? [[String: Any]])
        #expect(findings.count == 2)
        #expect(findings.allSatisfy { $0["baseline"] as? Bool == true })
        for finding in findings {
            let message = try #require(finding["message"] as? String)
            #expect(message.range(of: #"\d"#, options: .regularExpression) == nil, "no line and no count: \(message)")
        }

        let grown = try cli.signalscope("check", "new.sslog", "--fail-on", "warning", "--baseline", "baseline.json")
        #expect(grown.status == 2, "a late send in another function is a new finding: \(grown.standardOutput)")
        #expect(grown.standardOutput.contains("App/Session.swift:60"))
    }

    @Test("SARIF partial fingerprints are the same before and after an edit that moved lines")
    func sarifFingerprintsSurviveEdits() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        try Self.trace(shift: 0, subscriptions: 2).write(to: cli.path("before.sslog"))
        try Self.trace(shift: 12, subscriptions: 3).write(to: cli.path("after.sslog"))
        func fingerprints(_ trace: String) throws -> [String] {
            _ = try cli.signalscope("check", trace, "--fail-on", "never", "--format", "sarif=\(trace).sarif")
            let log = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: cli.path("\(trace).sarif")))) as? [String: Any])
            let results = try #require(((log["runs"] as? [[String: Any]])?.first?["results"]) as? [[String: Any]])
            return results.compactMap { ($0["partialFingerprints"] as? [String: String])?["signalscope/v2"] }.sorted()
        }
        let before = try fingerprints("before.sslog")
        #expect(before.count == 2)
        #expect(try fingerprints("after.sslog") == before)
    }
}
