import Foundation
import SignalScopeTools
import Testing

/// Logs no recorder writes, handed to every command: each once crashed or hung the tool.
/// Every command must read them, say what it can, and exit with one of its documented codes.
@Suite("signalscope on crafted logs", .timeLimit(.minutes(10)))
struct CraftedInputTests {
    /// Every command that reads a trace, as a user would run it on `trace`.
    static func everyCommand(_ trace: String) -> [[String]] {
        [
            ["check", trace, "--fail-on", "never", "--allow-incomplete"],
            ["stats", trace],
            ["graph", trace, "-o", "graph.svg"],
            ["graph", trace, "-o", "graph.dot", "--no-collapse"],
            ["timeline", trace, "-o", "timeline.svg"],
            ["timeline", trace, "-o", "lanes.svg", "--lanes", "nodes"],
            ["export", trace, "--chrome-trace", "chrome.json", "--jsonl", "records.jsonl"],
            ["export", trace, "--perfetto", "trace.pftrace"],
        ]
    }

    private func expectEveryCommandRuns(_ log: CraftedLog, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        try log.write(to: cli.path("crafted.sslog"))
        for command in Self.everyCommand("crafted.sslog") {
            let result = try cli.signalscope(command)
            #expect(result.status == 0, "\(command.joined(separator: " ")): \(result.standardError)", sourceLocation: sourceLocation)
        }
    }

    @Test("A retain count or id of 2^63 or more reads, saturated, in every command")
    func hugeCountsAndIDs() throws {
        var log = CraftedLog()
        let huge: UInt64 = 1 << 63 | 5
        log.node(1)
        log.subscribe(huge, to: 1)
        log.next(huge, "1")
        log.snapshot()
        log.alive(.node, 1, retainCount: UInt64.max)
        log.alive(.subscription, huge, retainCount: 1 << 63)
        log.end()
        try expectEveryCommandRuns(log)

        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        try log.write(to: cli.path("huge.sslog"))
        _ = try cli.signalscope("export", "huge.sslog", "--chrome-trace", "chrome.json")
        let chrome = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: cli.path("chrome.json")))) as? [String: Any]
        let subscriptions = (chrome?["traceEvents"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(subscriptions.contains("s\(huge)"), "a subscription's slice keeps its whole id")
    }

    @Test("Objects with an empty type name are named by what the analysis can say")
    func emptyTypeName() throws {
        var log = CraftedLog()
        log.node(1)
        log.subscribe(1, to: 1)
        log.snapshot()
        log.heapObject(1, typeName: "")
        log.heapObject(2, typeName: "")
        log.reference(from: 1, to: 2, path: "child")
        log.reference(from: 2, to: 1, path: "parent")
        log.end()
        try expectEveryCommandRuns(log)
    }

    @Test("A clock that goes back (records of other threads, a bad timestamp) draws within the trace's time")
    func timestampsOutOfOrder() throws {
        var log = CraftedLog()
        log.node(1)
        log.subscribe(1, to: 1, timestamp: 5_000_000)
        for value in 0..<400 { log.next(1, "\(value)", timestamp: value == 200 ? 10 : 5_000_000 + UInt64(value) * 1_000) }
        log.next(1, "last", timestamp: UInt64.max)
        log.snapshot()
        log.end()
        try expectEveryCommandRuns(log)

        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        try log.write(to: cli.path("clock.sslog"))
        _ = try cli.signalscope("timeline", "clock.sslog", "-o", "timeline.svg")
        let svg = try String(contentsOfFile: cli.path("timeline.svg"), encoding: .utf8)
        #expect(!svg.contains("nan") && !svg.contains("inf"), "every coordinate is a number")
    }

    @Test("stats refuses a negative --top in one line")
    func negativeTop() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        var log = CraftedLog()
        log.node(1)
        log.end()
        try log.write(to: cli.path("t.sslog"))
        let result = try cli.signalscope("stats", "t.sslog", "--top=-1")
        #expect(result.status == 1)
        #expect(result.standardError == "signalscope: error: --top must be 0 or more, not -1\n")
    }

    @Test("graph --depth of Int.max stops once nothing new is reached")
    func hugeDepth() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        var log = CraftedLog()
        log.node(1, name: "source")
        log.node(2, name: "map", parents: [1])
        log.end()
        try log.write(to: cli.path("t.sslog"))
        let result = try cli.signalscope("graph", "t.sslog", "-o", "g.dot", "--depth", "9223372036854775807", "--focus", "map")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("(2 nodes"))
    }
}

/// Logs the size a long-running app writes. Each once read in time that grew with the
/// square of its size (40,000 inner signals took 147 s to check); read in linear time they
/// take seconds, so the generous time limit only catches a return to quadratic work.
@Suite("signalscope on large logs", .atScale, .timeLimit(.minutes(10)))
struct LargeLogTests {
    @Test("100,000 inner signals into one switchToLatest, every one capturing the same view model")
    func manyParentsAndCaptures() throws {
        let count: UInt64 = 100_000
        var log = CraftedLog()
        log.node(1, name: "switchToLatest")
        for inner in 2...count + 1 {
            log.node(inner, name: "inner")
            log.edge(to: 1, from: inner)
            log.subscribe(inner, to: inner)
            log.observerStored(inner)
        }
        log.snapshot()
        log.heapObject(1, typeName: "App.SearchViewModel", retainCount: count)
        for inner in 2...count + 1 {
            log.heapObject(inner, typeName: "SignalScope.Subscriber<Int>", category: 1, entityKind: 2, entityID: inner)
            log.capture(from: inner, to: 1, role: "next closure")
        }
        log.end()
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        try log.write(to: cli.path("search.sslog"))
        let check = try cli.signalscope(["check", "search.sslog", "--fail-on", "never"], timeLimit: 120)
        #expect(check.status == 0, "\(check.standardError)")
        let stats = try cli.signalscope(["stats", "search.sslog"], timeLimit: 120)
        #expect(stats.status == 0, "\(stats.standardError)")
        #expect(stats.standardOutput.contains("100001"), "\(stats.standardOutput)")
    }
}

@Suite("Both details judge alike", .timeLimit(.minutes(10)))
struct DetailAgreementTests {
    @Test("A subscription disposed while the snapshot was written, and an error nobody disposed, are judged the same with either detail")
    func disposedDuringTheSnapshot() throws {
        var log = CraftedLog()
        log.node(1)
        log.subscribe(1, to: 1, line: 8)
        log.observerStored(1)
        log.node(2)
        log.subscribe(2, to: 2, line: 9)
        log.observerStored(2, handlers: 1)
        log.error(2, "boom")
        log.snapshot()
        log.alive(.node, 1, retainCount: 1)
        log.alive(.subscription, 1, retainCount: 1)
        // Subscription 1 never ends and nothing but itself holds its disposable.
        log.heapObject(10, typeName: "SignalScope.Subscription", category: 1, entityKind: 2, entityID: 1)
        log.heapObject(11, typeName: "SignalScope.SerialDisposable", category: 1, entityKind: 3, entityID: 1)
        log.reference(from: 10, to: 11, path: "disposable")
        log.disposed(1)
        log.end()
        let summary = { (detail: Trace.Detail) in
            try Trace(data: Data(log.bytes), path: "crafted", detail: detail).analyze().findings.map { "\($0.rule)@\($0.location.line)" }.sorted()
        }
        let everything = try summary(.everything)
        #expect(try summary(.liveEntities) == everything)
        #expect(everything == ["leaked-subscription@8", "unhandled-error@9"], "judged as the snapshot saw it")
    }
}
