import Foundation
import Testing

/// signalscope run as daemons and some CI wrappers run tools: with standard error or standard
/// output closed, and stopped by a signal at any moment. Every command keeps its documented
/// exit code, writes what it was asked to write, and leaves nothing in `$TMPDIR`.
@Suite("Closed streams and signals", .serialized, .timeLimit(.minutes(10)))
struct ClosedStreamTests {
    /// A trace cut off before its end record: every command that reads it warns.
    private func cutOffTrace(in cli: CLIRunner) throws {
        var log = CraftedLog()
        log.node(1, name: "query")
        log.subscribe(1, to: 1)
        log.next(1, "value")
        try log.write(to: cli.path("cut.sslog"))
    }

    private func temporaryFolder(in cli: CLIRunner) throws -> String {
        let folder = cli.path("tmp")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    private func leftovers(in folder: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    }

    @Test("Every command that writes to standard error, and the wrapped program, run with 2>&- and >&- as with open streams")
    func closedStreams() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        try cutOffTrace(in: cli)
        let tmp = try temporaryFolder(in: cli)
        let session = CLIRunner.product("LiveSession")
        // Each command, the status it documents, and the file it must write.
        let commands: [(command: String, status: Int32, writes: String?)] = [
            ("record -o recorded.sslog -- \(session) --seconds 1", 0, "recorded.sslog"),
            ("check --format json=check.json -- \(session) --seconds 1", 2, "check.json"),
            ("live --exit-when-done -- \(session) --seconds 1", 0, nil),
            ("report cut.sslog -o report.html", 0, "report.html"),
            ("export cut.sslog --jsonl export.jsonl", 0, "export.jsonl"),
        ]
        for redirect in ["2>&-", ">&- 2>&-", "<&- >&- 2>&-"] {
            for (command, status, writes) in commands {
                if let writes { try? FileManager.default.removeItem(atPath: cli.path(writes)) }
                let result = try cli.run(
                    "/bin/bash", ["-c", "\"$SIGNALSCOPE\" \(command) \(redirect)"],
                    environment: ["SIGNALSCOPE": CLIRunner.product("signalscope"), "TMPDIR": tmp], timeLimit: 120)
                #expect(result.status == status, "\(command) \(redirect): exit \(result.status)")
                if let writes {
                    let size = (try? FileManager.default.attributesOfItem(atPath: cli.path(writes)))?[.size] as? Int ?? 0
                    #expect(size > 0, "\(command) \(redirect) wrote \(writes)")
                }
                #expect(leftovers(in: tmp).isEmpty, "\(command) \(redirect) left \(leftovers(in: tmp)) in TMPDIR")
            }
        }
    }

    @Test("A signal while signalscope reads or analyses (no program running), or while live makes its final report, ends it with 128+N and one line, and what it started with it; while live serves its final report, it ends the serving as Ctrl-C is documented to; no temporary folder stays")
    func signalsOutsideTheProgram() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        let tmp = try temporaryFolder(in: cli)
        // `report -` waits for a trace on standard input (a FIFO the shell holds open).
        let reading = try cli.run(
            "/bin/bash", ["-c", #"mkfifo in; "$SIGNALSCOPE" report - -o r.html < in & pid=$!; exec 3>in; sleep 1; kill -TERM $pid; wait $pid"#],
            environment: ["SIGNALSCOPE": CLIRunner.product("signalscope"), "TMPDIR": tmp], timeLimit: 60)
        #expect(reading.status == 128 + SIGTERM, "\(reading.standardError)")
        #expect(reading.standardError == "signalscope: interrupted by SIGTERM\n", "\(reading.standardError)")

        // live, once the program ended and the page has its final report, until stopped.
        let script = #"""
            "$SIGNALSCOPE" live -- "$SESSION" --seconds 1 2> live.err &
            pid=$!
            trap 'kill -9 $pid 2>/dev/null' EXIT
            for _ in $(seq 600); do grep -q "Ctrl-C to stop serving" live.err && break; sleep 0.1; done
            ls "$TMPDIR" | wc -l > during
            kill -INT $pid; wait $pid
            """#
        let serving = try cli.run(
            "/bin/bash", ["-c", script],
            environment: ["SIGNALSCOPE": CLIRunner.product("signalscope"), "SESSION": CLIRunner.product("LiveSession"), "TMPDIR": tmp],
            timeLimit: 120)
        #expect(serving.status == 0, "Ctrl-C stops serving; the program's own status stands")
        #expect(try String(contentsOfFile: cli.path("during"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines) == "1",
            "the run's folder existed while it served")
        #expect(leftovers(in: tmp).isEmpty, "\(leftovers(in: tmp))")

        // live, while its final report is being made (by a `signalscope report` child).
        let reporting = #"""
            "$SIGNALSCOPE" live -- "$SESSION" --seconds 1 --updates 100000 > /dev/null 2> live.err &
            pid=$!
            # Whatever happens, nothing outlives the script (it would hold the test's pipes).
            trap 'kill -9 $pid 2>/dev/null' EXIT
            reporter=""
            for _ in $(seq 1200); do
                for stat in /proc/[0-9]*/stat; do
                    read -r child _ _ parent _ < "$stat" 2>/dev/null || continue
                    [ "$parent" = "$pid" ] && tr '\0' ' ' < "/proc/$child/cmdline" | grep -q " report " && reporter=$child
                done
                [ -n "$reporter" ] && break
                sleep 0.05
            done
            kill -INT $pid; wait $pid; status=$?
            sleep 0.5
            # Gone, or a zombie its new parent has yet to reap.
            [ -n "$reporter" ] && { [ ! -e "/proc/$reporter/stat" ] || [ "$(cut -d' ' -f3 "/proc/$reporter/stat")" = Z ]; } && gone=yes || gone=no
            echo "$status $gone"
            """#
        let report = try cli.run(
            "/bin/bash", ["-c", reporting],
            environment: ["SIGNALSCOPE": CLIRunner.product("signalscope"), "SESSION": CLIRunner.product("LiveSession"), "TMPDIR": tmp],
            timeLimit: 180)
        #expect(report.standardOutput == "\(128 + SIGINT) yes\n", "exit 130, and the report's process is gone: \(report.standardOutput)")
        let said = try String(contentsOfFile: cli.path("live.err"), encoding: .utf8)
        #expect(said.hasSuffix("signalscope: interrupted by SIGINT; its temporary files are removed\n"), "\(said)")
        #expect(leftovers(in: tmp).isEmpty, "\(leftovers(in: tmp))")
    }
}
