import Foundation
import Testing

/// A baseline accepts findings by fingerprint, which holds no line, up to a count: the same
/// findings after an edit that moved them or added lines above them still match; a finding
/// about something else, or more of one than accepted, fails the gate.
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

    /// A feed whose cells each send to a subject that already completed, `cells` times, at
    /// one line of `configure()`, `shift` lines down.
    static func lateSends(_ cells: Int, shift: UInt32) -> CraftedLog {
        var log = CraftedLog()
        log.node(1, name: "subject", file: "App/Feed.swift", function: "init()", line: 5 + shift)
        log.named(1, "items")
        for _ in 0..<cells {
            log.violation(node: 1, stack: "FeedCell.configure() (App/FeedCell.swift:\(19 + shift))", file: "App/FeedCell.swift",
                          function: "configure()", line: 19 + shift)
        }
        log.snapshot()
        log.end()
        return log
    }

    @Test("A baseline of 100 accepts 100, after lines were inserted too, fails at 101 saying by how many, and says 90 can be tightened, which --update-baseline does")
    func countedBaseline() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        for (name, cells, shift) in [("100", 100, 0), ("moved", 100, 9), ("101", 101, 9), ("90", 90, 9)] as [(String, Int, UInt32)] {
            try Self.lateSends(cells, shift: shift).write(to: cli.path("\(name).sslog"))
        }
        let written = try cli.signalscope("check", "100.sslog", "--fail-on", "never", "--write-baseline", "baseline.json")
        #expect(written.status == 0, "\(written.standardError)")
        let file = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: cli.path("baseline.json")))) as? [String: Any])
        #expect(file["version"] as? Int == 3 && (file["findings"] as? [[String: Any]])?.map { $0["count"] as? Int } == [100], "\(file)")

        let moved = try cli.signalscope("check", "moved.sslog", "--fail-on", "warning", "--baseline", "baseline.json")
        #expect(moved.status == 0, "inserted lines keep the 100: \(moved.standardOutput)\(moved.standardError)")
        let more = try cli.signalscope("check", "101.sslog", "--fail-on", "warning", "--baseline", "baseline.json")
        #expect(more.status == 2, "\(more.standardOutput)")
        #expect(more.standardError.contains("1 more [event-after-terminal] at App/FeedCell.swift:28 than the baseline's 100: all 101 fail until there are no more than 100"), "\(more.standardError)")
        let fewer = try cli.signalscope("check", "90.sslog", "--fail-on", "warning", "--baseline", "baseline.json", "--update-baseline")
        #expect(fewer.status == 0, "\(fewer.standardError)")
        #expect(fewer.standardError.contains("10 fewer [event-after-terminal] at App/FeedCell.swift:28 than the baseline's 100"), "\(fewer.standardError)")
        let tightened = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: cli.path("baseline.json")))) as? [String: Any])
        #expect((tightened["findings"] as? [[String: Any]])?.map { $0["count"] as? Int } == [90], "\(tightened)")
        let again = try cli.signalscope("check", "moved.sslog", "--fail-on", "warning", "--baseline", "baseline.json")
        #expect(again.status == 2, "the tightened baseline accepts 90, not 100")
    }

    @Test("A baseline of version 2, without counts, accepts any number of each finding and says so")
    func uncountedBaseline() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        try Self.lateSends(3, shift: 0).write(to: cli.path("few.sslog"))
        try Self.lateSends(50, shift: 0).write(to: cli.path("many.sslog"))
        _ = try cli.signalscope("check", "few.sslog", "--fail-on", "never", "--write-baseline", "baseline.json")
        var file = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: cli.path("baseline.json")))) as? [String: Any])
        file["version"] = 2
        file["findings"] = (file["findings"] as? [[String: Any]] ?? []).map { $0.filter { $0.key != "count" } }
        try JSONSerialization.data(withJSONObject: file).write(to: URL(fileURLWithPath: cli.path("baseline.json")))
        let many = try cli.signalscope("check", "many.sslog", "--fail-on", "warning", "--baseline", "baseline.json")
        #expect(many.status == 0, "\(many.standardOutput)")
        #expect(many.standardError.contains("has no counts (version 2)"), "\(many.standardError)")
    }

    @Test("Moving code and adding lines keep every finding in the baseline; a new problem fails")
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
