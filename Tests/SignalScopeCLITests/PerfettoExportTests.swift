import Foundation
import Testing

/// `signalscope export --perfetto`, read with Perfetto's own compiled protos (the `perfetto`
/// Python package; Tests/Export/perfetto_trace.py), checked against the trace's records (its
/// JSON Lines export) and against its Chrome export.
@Suite("The Perfetto export", .timeLimit(.minutes(10)))
struct PerfettoExportTests {
    /// What perfetto_trace.py says of the three exports of `trace`.
    private func read(_ cli: CLIRunner, _ trace: String) throws -> [String: Any] {
        let export = try cli.signalscope(["export", trace, "--perfetto", "t.pftrace", "--chrome-trace", "t.json", "--jsonl", "t.jsonl"])
        #expect(export.status == 0, "\(export.standardError)")
        let script = CLIRunner.repository.appendingPathComponent("Tests/Export/perfetto_trace.py").path
        let result = try cli.run("/usr/bin/env", ["python3", script, cli.path("t.pftrace"), cli.path("t.json"), cli.path("t.jsonl")])
        #expect(result.status == 0, "\(result.standardError)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any], "\(result.standardError)")
    }

    /// The findings `check` reports for `trace`, as the Perfetto export names them.
    private func findings(_ cli: CLIRunner, _ trace: String) throws -> Set<String> {
        let check = try cli.signalscope(["check", trace, "--format", "json", "--fail-on", "never"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(check.standardOutput.utf8)) as? [String: Any])
        return Set((report["findings"] as? [[String: Any]] ?? []).compactMap { finding -> String? in
            guard let rule = finding["rule"] as? String, let message = finding["message"] as? String else { return nil }
            return "[\(rule)] \(message)"
        })
    }

    @Test("Runs with operators, a throttle on a scheduler, values and planted leaks: every packet parses, each subscription has its track, each recorded cause its one flow (the same flows as the Chrome export, with the same slices), each interned name resolves, and the findings are on their track", arguments: ["SearchHints", "PlantedLeaks"])
    func structure(example: String) throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        let record = try cli.signalscope(["record", "--values", "-o", "t.sslog", "--", CLIRunner.product(example)])
        #expect(record.status == 0, "\(record.standardError)")
        let seen = try read(cli, "t.sslog")
        #expect(seen["problems"] as? [String] == [], "\(seen["problems"] ?? "")")
        let causes = try #require(seen["causes"] as? Int)
        #expect(causes > 0 && seen["flows"] as? Int == causes && seen["chromeFlows"] as? Int == causes, "\(seen)")
        #expect((seen["subscriptions"] as? Int ?? 0) > 0 && (seen["threadSlices"] as? Int ?? 0) > causes / 2, "\(seen)")
        let found = try findings(cli, "t.sslog")
        #expect(Set(seen["findings"] as? [String] ?? []) == found, "\(seen["findings"] ?? "")")
        #expect(example != "PlantedLeaks" || found.count == 2, "\(found)")
        let strings = seen["strings"] as? [String] ?? []
        #expect(strings.contains { $0.hasPrefix("\(example)/main.swift:") }, "each subscription's slice carries its site")
    }

    @Test("Hostile names, values and errors come out as data, exactly")
    func hostileStrings() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        try HostileStringTests.hostileTrace().write(to: cli.path("hostile.sslog"))
        let seen = try read(cli, "hostile.sslog")
        #expect(seen["problems"] as? [String] == [], "\(seen["problems"] ?? "")")
        #expect(Set(seen["findings"] as? [String] ?? []) == (try findings(cli, "hostile.sslog")))
        let strings = Set(seen["strings"] as? [String] ?? [])
        for text in HostileStringTests.hostile {
            #expect(strings.contains(text), "the export keeps \(text.debugDescription) exactly")
        }
    }

    @Test("A million-record export keeps memory flat: its peak is a fraction of the file it writes", .atScale)
    func millionRecords() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        // Two records per update: a million records.
        let record = try cli.signalscope(
            ["record", "-o", "big.sslog", "--", CLIRunner.product("LiveSession"), "--seconds", "1", "--updates", "500000"], timeLimit: 300)
        #expect(record.status == 0, "\(record.standardError)")
        let measure = """
            import resource, subprocess, sys
            subprocess.run(sys.argv[1:], check=True, capture_output=True)
            print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
            """
        let result = try cli.run(
            "/usr/bin/env", ["python3", "-c", measure, CLIRunner.product("signalscope"), "export", cli.path("big.sslog"), "--perfetto", cli.path("big.pftrace")],
            timeLimit: 300)
        #expect(result.status == 0, "\(result.standardError)")
        let peakKiB = try #require(Int(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)))
        let size = try #require(try FileManager.default.attributesOfItem(atPath: cli.path("big.pftrace"))[.size] as? Int)
        #expect(size > 20 << 20, "a million records make a file of tens of megabytes: \(size) bytes")
        // Measured: 30 MB (debug build) for a file of 40 MB; a million records held would be hundreds.
        #expect(peakKiB < 120 << 10, "peak \(peakKiB) KiB exporting \(size) bytes")
    }
}
