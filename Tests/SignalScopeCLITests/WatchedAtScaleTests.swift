import Foundation
import Testing

/// Hundreds and thousands of watched objects (`Tracer.expectDeallocation`), as an app that
/// watches every dismissed screen makes them: the LiveSession example with `--screens N`
/// dismisses N screens a tenth of a second in, each watched with a 1 ms deadline, and keeps
/// them all; its session runs two seconds.
@Suite("Watched objects at scale", .atScale, .serialized, .timeLimit(.minutes(10)))
struct WatchedAtScaleTests {
    private func findings(_ cli: CLIRunner, _ trace: String) throws -> [[String: Any]] {
        let result = try cli.signalscope(["check", trace, "--format", "json", "--fail-on", "never"], timeLimit: 120)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any], "\(result.standardError)")
        return report["findings"] as? [[String: Any]] ?? []
    }

    @Test("200 and 2,000 watched objects are judged in batches: the run ends within seconds of the program's two, every object is reported in one finding that says how late the first was judged, and standard error has a few lines, not one per object", arguments: [200, 2000])
    func batches(screens: Int) throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        let started = ContinuousClock.now
        let result = try cli.signalscope(
            ["record", "-o", "w.sslog", "--", CLIRunner.product("LiveSession"), "--seconds", "2", "--screens", "\(screens)"], timeLimit: 180)
        let took = started.duration(to: .now)
        #expect(result.status == 0, "\(result.standardError)")
        // Measured on 2 cores in a debug build: 2.5 s for 200, 6.3 s for 2,000 (one snapshot
        // per watched object took 45 s for 200, and 2,000 never exited).
        #expect(took < .seconds(screens == 200 ? 20 : 60), "the run took \(took)")
        let announced = result.standardError.split(separator: "\n").filter { $0.contains("retained-after-release") }
        #expect(announced.count <= 10 + 21, "\(announced.count) lines on standard error")
        // One leak, one finding: every screen (the first, and the N more) is kept by the
        // subscription it never ended, one finding at that line, which starts with what the
        // app declared and how late the screen was judged.
        let all = try findings(cli, "w.sslog")
        #expect(all.count == 1, "\(all.map { $0["rule"] ?? "" })")
        let batch = try #require(all.first)
        #expect(batch["rule"] as? String == "leaked-subscription" && batch["severity"] as? String == "error", "\(batch)")
        #expect(batch["count"] as? Int == screens + 1, "every dismissed screen is reported: \(batch["count"] ?? 0)")
        let path = batch["path"] as? [String] ?? []
        // The first screen is judged by a mid-run snapshot, or by the closing one when the
        // snapshots the 2,000 others took left no room before the program ended (their gap is
        // twice what each took): either way the step says when the screen was seen alive.
        #expect(path.first?.contains(/ProfileScreen was still alive (when recording ended, )?[0-9.]+ seconds after "ProfileScreen dismissed"/) == true, "\(path.first ?? "")")
    }

    @Test("SIGTERM while 2,000 watched objects are judged ends the run at once (128+15) and keeps what was recorded in the -o file")
    func interruptedKeepsTheTrace() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        let script = #"""
            "$SIGNALSCOPE" record -o w.sslog -- "$SESSION" --seconds 30 --screens 2000 2> err &
            pid=$!
            trap 'kill -9 $pid 2>/dev/null' EXIT
            sleep 1.5
            kill -TERM $pid
            start=$(date +%s%N)
            wait $pid
            status=$?
            echo "$status $(( ($(date +%s%N) - start) / 1000000 ))"
            """#
        let result = try cli.run(
            "/bin/bash", ["-c", script],
            environment: ["SIGNALSCOPE": CLIRunner.product("signalscope"), "SESSION": CLIRunner.product("LiveSession")], timeLimit: 120)
        let fields = result.standardOutput.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        #expect(fields.first == 128 + Int(SIGTERM), "\(result.standardOutput)")
        #expect((fields.last ?? .max) < 10_000, "stopped \(fields.last ?? -1) ms after SIGTERM")
        let errors = try String(contentsOfFile: cli.path("err"), encoding: .utf8)
        #expect(errors.contains("the trace recorded before the interruption is written to w.sslog"), "\(errors)")
        #expect(try findings(cli, "w.sslog").contains { ($0["path"] as? [String])?.first?.contains("\"ProfileScreen dismissed\"") == true })
    }
}
