import Foundation
import Testing

/// Small traces shaped to make every command do a lot: a huge name used many times, deep
/// chains, long cycles. Each command must finish in seconds, its output bounded by a small
/// multiple of the trace, and say what it cut.
@Suite("Traces shaped to stall or fill", .timeLimit(.minutes(10)))
struct HostileShapeTests {
    /// What each command may write, at most, per byte of trace (docs/cli.md, "Traces from
    /// others").
    static let outputPerInputByte = 40

    /// Every command on `trace`: each must finish within `seconds` and write at most
    /// ``outputPerInputByte`` times the trace's size. The limits are generous (linear work
    /// takes a few seconds here, a tenth of them, in a debug build on an idle machine): they
    /// catch work that grows with the square of the trace (minutes at these sizes), not a
    /// busy machine.
    func expectBounded(_ cli: CLIRunner, _ trace: String, seconds: Double, warning: String? = nil,
                       sourceLocation: SourceLocation = #_sourceLocation) throws {
        let size = try Data(contentsOf: URL(fileURLWithPath: cli.path(trace))).count
        for command in [
            ["check", trace, "--fail-on", "never", "--allow-incomplete", "--format", "text"],
            ["check", trace, "--fail-on", "never", "--allow-incomplete", "--format", "sarif"],
            ["report", trace, "-o", "-"], ["graph", trace, "--format", "dot", "-o", "-"], ["graph", trace, "-o", "-", "--format", "svg"],
            ["timeline", trace, "-o", "-"], ["export", trace, "--jsonl", "-"], ["export", trace, "--chrome-trace", "-"],
            ["export", trace, "--perfetto", "shape.pftrace"],
            ["stats", trace],
        ] {
            let start = Date()
            let result = try cli.signalscope(command, timeLimit: 120)
            let elapsed = Date().timeIntervalSince(start)
            #expect(result.status == 0, "\(command): \(result.standardError)", sourceLocation: sourceLocation)
            #expect(elapsed < seconds, "\(command) took \(elapsed) s", sourceLocation: sourceLocation)
            #expect(result.standardOutput.utf8.count <= size * Self.outputPerInputByte,
                    "\(command) wrote \(result.standardOutput.utf8.count) bytes for a trace of \(size)", sourceLocation: sourceLocation)
            if let warning {
                #expect(result.standardError.contains(warning), "\(command): \(result.standardError)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test("One 400 KB name used by 300 nodes at different lines: cut when read, said once, every output bounded", .atScale)
    func amplification() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        let huge = String(repeating: "Ä", count: 200_000)
        var log = CraftedLog()
        for id in 1...300 as ClosedRange<UInt64> {
            log.node(id, name: huge, file: huge + ".swift", function: huge, line: UInt32(id))
            log.subscribe(id, to: id, file: huge + ".swift", function: huge, line: UInt32(id))
            log.observerStored(id)
            log.next(id, "value")
        }
        log.next(1, huge)
        log.snapshot()
        for id in 1...300 as ClosedRange<UInt64> { log.alive(.subscription, id, retainCount: 1) }
        log.end()
        try log.write(to: cli.path("huge.sslog"))
        try expectBounded(cli, "huge.sslog", seconds: 60, warning: "longer than 256 characters were cut")
    }

    @Test("A name just under the cap used by thousands of nodes: every output bounded", .atScale)
    func manyUsesOfALongName() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        let long = String(repeating: "n", count: 300)
        var log = CraftedLog()
        for id in 1...2_000 as ClosedRange<UInt64> {
            log.node(id, name: long, file: long + ".swift", function: long, line: UInt32(id))
            log.subscribe(id, to: id, file: long + ".swift", function: long, line: UInt32(id))
            log.observerStored(id)
            log.next(id, "value")
        }
        log.snapshot()
        for id in 1...2_000 as ClosedRange<UInt64> { log.alive(.subscription, id, retainCount: 1) }
        log.end()
        try log.write(to: cli.path("long.sslog"))
        try expectBounded(cli, "long.sslog", seconds: 60)
    }

    @Test("A chain of 20,000 live subscriptions, each the previous one's child, over a chain of nodes: every command in seconds", .atScale)
    func deepChain() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        let depth: UInt64 = 20_000
        var log = CraftedLog()
        for id in 1...depth {
            log.node(id, name: "map", kind: 1, parents: id == 1 ? [] : [id - 1])
            log.subscribe(id, to: id, parent: id == 1 ? 0 : id - 1, line: UInt32(id % 1000))
            log.observerStored(id)
        }
        log.snapshot()
        for id in 1...depth { log.alive(.subscription, id, retainCount: 1) }
        log.end()
        try log.write(to: cli.path("deep.sslog"))
        try expectBounded(cli, "deep.sslog", seconds: 90)
    }

    @Test("Nodes whose parents form one cycle of 20,000: every command in seconds", .atScale)
    func parentCycle() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        let length: UInt64 = 20_000
        var log = CraftedLog()
        for id in 1...length {
            log.node(id, name: "map", kind: 1, parents: [id == 1 ? length : id - 1])
            log.subscribe(id, to: id, line: UInt32(id % 1000))
        }
        log.snapshot()
        log.end()
        try log.write(to: cli.path("cycle.sslog"))
        try expectBounded(cli, "cycle.sslog", seconds: 90)
    }

    /// The shapes above, small, as the fuzzer's seeds (`scripts/fuzz.sh` reads
    /// `Tests/FuzzSeeds`), so that its mutations start from what stalled the tool once.
    static var seeds: [(name: String, log: CraftedLog)] {
        var amplification = CraftedLog()
        let name = String(repeating: "N", count: 300)
        for id in 1...40 as ClosedRange<UInt64> {
            amplification.node(id, name: name, file: name + ".swift", function: name, line: UInt32(id))
            amplification.subscribe(id, to: id, file: name + ".swift", line: UInt32(id))
            amplification.observerStored(id)
            amplification.next(id, name)
        }
        amplification.snapshot()
        for id in 1...40 as ClosedRange<UInt64> { amplification.alive(.subscription, id, retainCount: 1) }
        amplification.end()
        var chain = CraftedLog()
        for id in 1...200 as ClosedRange<UInt64> {
            chain.node(id, name: "map", kind: 1, parents: id == 1 ? [] : [id - 1])
            chain.subscribe(id, to: id, parent: id == 1 ? 0 : id - 1)
            chain.observerStored(id)
        }
        chain.snapshot()
        for id in 1...200 as ClosedRange<UInt64> { chain.alive(.subscription, id, retainCount: 1) }
        chain.end()
        var cycle = CraftedLog()
        for id in 1...200 as ClosedRange<UInt64> {
            cycle.node(id, name: "map", kind: 1, parents: [id == 1 ? 200 : id - 1])
            cycle.subscribe(id, to: id)
        }
        cycle.snapshot()
        cycle.end()
        return [("amplification", amplification), ("deep-chain", chain), ("parent-cycle", cycle)]
    }

    @Test("The fuzzer's seeds are these shapes (SIGNALSCOPE_RECORD_GOLDEN=1 writes them again)")
    func fuzzSeeds() throws {
        let folder = CLIRunner.repository.appendingPathComponent("Tests/FuzzSeeds")
        for (name, log) in Self.seeds {
            let file = folder.appendingPathComponent("\(name).sslog")
            if ProcessInfo.processInfo.environment["SIGNALSCOPE_RECORD_GOLDEN"] == "1" {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try log.write(to: file.path)
            }
            #expect(try Data(contentsOf: file) == Data(log.bytes), "\(name): re-record with SIGNALSCOPE_RECORD_GOLDEN=1")
        }
    }
}
