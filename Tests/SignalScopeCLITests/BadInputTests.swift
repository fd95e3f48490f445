import Foundation
import Testing
@testable import SignalScopeTracing

/// Every bad input gets one line on standard error naming the problem, and exit 1.
@Suite("signalscope bad input", .timeLimit(.minutes(10)))
struct BadInputTests {
    let plantedLeaks = CLIRunner.product("PlantedLeaks")

    func expectUsageError(_ result: CLIRunner.Result, mentioning text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 1, sourceLocation: sourceLocation)
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1, "one line, got: \(result.standardError)", sourceLocation: sourceLocation)
        #expect(result.standardError.contains(text), "got: \(result.standardError)", sourceLocation: sourceLocation)
    }

    @Test func missingAndForeignFiles() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        expectUsageError(try cli.signalscope("check", "missing.sslog"), mentioning: "no such trace: missing.sslog")
        try Data("not a trace at all\n".utf8).write(to: URL(fileURLWithPath: cli.path("notes.txt")))
        expectUsageError(try cli.signalscope("check", "notes.txt"), mentioning: "is not a SignalScope event log")
        expectUsageError(try cli.signalscope("graph", "missing.sslog", "-o", "g.svg"), mentioning: "no such trace")
        expectUsageError(try cli.signalscope("stats", "."), mentioning: "is a directory")
    }

    @Test("Any input a user can name is read or refused at once: standard input, a pipe, a FIFO with and without a writer, a name that is not UTF-8")
    func inputsOfEveryKind() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        _ = try cli.signalscope("record", "-o", "t.sslog", "--", plantedLeaks)
        let tool = CLIRunner.product("signalscope")
        func shell(_ script: String) throws -> CLIRunner.Result {
            try cli.run("/bin/bash", ["-c", script], environment: ["SIGNALSCOPE": tool], timeLimit: 30)
        }
        let expected = try cli.signalscope("check", "t.sslog", "--fail-on", "never", "--format", "json").standardOutput
        // Standard input, a redirected file and a pipe; process substitution; export, which reads twice.
        for script in [
            #""$SIGNALSCOPE" check - --fail-on never --format json < t.sslog"#,
            #"cat t.sslog | "$SIGNALSCOPE" check - --fail-on never --format json"#,
            #""$SIGNALSCOPE" check <(cat t.sslog) --fail-on never --format json"#,
        ] {
            let result = try shell(script)
            #expect(result.status == 0 && result.standardOutput == expected, "\(script): \(result.standardError)")
        }
        let exported = try shell(#"cat t.sslog | "$SIGNALSCOPE" export - --jsonl piped.jsonl"#)
        #expect(exported.status == 0, "\(exported.standardError)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: cli.path("piped.jsonl"))).count > 1000)
        // A FIFO a program writes into, and one nobody does: refused at once, in one line.
        let written = try shell(#"mkfifo fed && { cat t.sslog > fed & } && "$SIGNALSCOPE" stats fed"#)
        #expect(written.status == 0 && written.standardOutput.contains("records"), "\(written.standardError)")
        let start = Date()
        let unfed = try shell(#"mkfifo unfed && "$SIGNALSCOPE" check unfed"#)
        expectUsageError(unfed, mentioning: "no program is writing into this FIFO")
        #expect(Date().timeIntervalSince(start) < 10)
        // A name with a byte that is not UTF-8 names that file, not another.
        let named = try shell(#"cp t.sslog "$(printf 'bad\377.sslog')" && "$SIGNALSCOPE" stats "$(printf 'bad\377.sslog')""#)
        #expect(named.status == 0 && named.standardOutput.contains("records"), "\(named.standardError)")
    }

    @Test func aTruncatedTraceIsAnalysedUpToItsLastCompleteRecord() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        _ = try cli.signalscope("record", "-o", "whole.sslog", "--", plantedLeaks)
        let whole = try Data(contentsOf: URL(fileURLWithPath: cli.path("whole.sslog")))
        try whole.dropLast(7).write(to: URL(fileURLWithPath: cli.path("cut.sslog")))
        // The cut took the end record: the check says it cannot vouch for what it did not see.
        let result = try cli.signalscope("check", "cut.sslog", "--fail-on", "never", "--format", "json")
        #expect(result.status == 3)
        #expect(result.standardError.contains("warning:") && result.standardError.contains("truncated"))
        #expect(result.standardError.contains("cut.sslog has no end record"))
        #expect(result.standardOutput.contains("\"version\" : 1"))
        let accepted = try cli.signalscope("check", "cut.sslog", "--fail-on", "never", "--allow-incomplete")
        #expect(accepted.status == 0)
    }

    @Test func aTraceWithoutItsClosingSnapshotFailsTheCheckAsIncomplete() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        _ = try cli.signalscope("record", "-o", "whole.sslog", "--", plantedLeaks)
        let whole = [UInt8](try Data(contentsOf: URL(fileURLWithPath: cli.path("whole.sslog"))))
        // Cut just before the snapshot record, as a process killed then would.
        var snapshot: Int?
        _ = whole.withUnsafeBytes { bytes in
            RecordsInMemory.walk(UnsafeRawBufferPointer(rebasing: bytes[EventLogFormat.headerSize...])) { record, range, _ in
                if record.prefix.kind == SnapshotRecord.kind, snapshot == nil { snapshot = EventLogFormat.headerSize + range.lowerBound }
            }
        }
        let offset = try #require(snapshot)
        try Data(whole[..<offset]).write(to: URL(fileURLWithPath: cli.path("killed.sslog")))

        let text = try cli.signalscope("check", "killed.sslog", "--fail-on", "never")
        #expect(text.status == 3, "\(text.standardOutput)\(text.standardError)")
        #expect(text.standardOutput.contains("incomplete: the trace has no closing heap snapshot"))
        #expect(text.standardOutput.contains("check incomplete: leaks may be missing"))
        let json = try cli.signalscope("check", "killed.sslog", "--fail-on", "never", "--format", "json")
        #expect(json.standardOutput.contains("\"limitations\" : ["))
        #expect(json.standardOutput.contains("\"incomplete\" : true"))
        let allowed = try cli.signalscope("check", "killed.sslog", "--fail-on", "never", "--allow-incomplete")
        #expect(allowed.status == 0)
        #expect(allowed.standardOutput.contains("incomplete: the trace has no closing heap snapshot"))
        #expect(allowed.standardOutput.contains("check passed"))
    }

    @Test func unknownNamesAndOptions() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        _ = try cli.signalscope("record", "-o", "t.sslog", "--", plantedLeaks)
        expectUsageError(try cli.signalscope("check", "t.sslog", "--rules", "no-such-rule"), mentioning: "unknown rule 'no-such-rule'")
        expectUsageError(try cli.signalscope("check", "t.sslog", "--format", "yaml"), mentioning: "unknown format 'yaml'")
        expectUsageError(try cli.signalscope("check", "t.sslog", "--fail-on", "sometimes"), mentioning: "--fail-on")
        expectUsageError(try cli.signalscope("check", "t.sslog", "--no-such-option"), mentioning: "--no-such-option")
        expectUsageError(try cli.signalscope("check"), mentioning: "give a trace file")
        expectUsageError(try cli.signalscope("graph", "t.sslog", "-o", "g.gif"), mentioning: "cannot tell the format")
        expectUsageError(try cli.signalscope("check", "--baseline", "t.sslog", "t.sslog"), mentioning: "is not a SignalScope baseline")
    }

    @Test func commandNotFoundAndUnwritableOutput() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        expectUsageError(try cli.signalscope("check", "--", "no-such-command-xyz"), mentioning: "command not found: no-such-command-xyz")
        _ = try cli.signalscope("record", "-o", "t.sslog", "--", plantedLeaks)
        try Data().write(to: URL(fileURLWithPath: cli.path("file")))
        expectUsageError(
            try cli.signalscope("check", "t.sslog", "--fail-on", "never", "--format", "json=file/report.json"),
            mentioning: "cannot write file/report.json")
    }

    @Test func helpExitsZero() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        let help = try cli.signalscope("--help")
        #expect(help.status == 0)
        #expect(help.standardOutput.contains("EXIT CODES"))
        // Each code on its own line, its explanation indented under it, nothing wrapped
        // by the 80-column terminal to the left margin.
        let block = help.standardOutput.components(separatedBy: "EXIT CODES\n").last?.components(separatedBy: "\n\n").first ?? ""
        let lines = block.split(separator: "\n")
        #expect(lines.count > 5 && lines.allSatisfy { $0.count <= 80 && $0.hasPrefix("  ") }, "\(block)")
        #expect(lines.filter { $0.firstMatch(of: /^  [0-9]  [a-z]/) != nil }.count == 5, "\(block)")
    }
}
