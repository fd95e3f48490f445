import Foundation
import Testing

/// Ordinary shell habits with outputs: naming the trace as the output, redirecting to a full
/// disk, replacing a private or read-only file, a folder or an odd byte as the output's name.
@Suite("Outputs written with care", .timeLimit(.minutes(10)))
struct CarelessOutputTests {
    /// A small trace, private as recorded traces are.
    private func trace(in cli: CLIRunner) throws -> Data {
        var log = CraftedLog()
        log.node(1, name: "query")
        log.subscribe(1, to: 1)
        log.observerStored(1)
        log.next(1, "value")
        log.snapshot()
        log.alive(.subscription, 1, retainCount: 1)
        log.end()
        try log.write(to: cli.path("t.sslog"))
        #expect(chmod(cli.path("t.sslog"), 0o600) == 0)
        return try Data(contentsOf: URL(fileURLWithPath: cli.path("t.sslog")))
    }

    private func expectOneLineError(_ result: CLIRunner.Result, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 1, "\(result.standardError)", sourceLocation: sourceLocation)
        #expect(result.standardError.split(separator: "\n").count == 1 && result.standardError.contains(text),
                "got: \(result.standardError)", sourceLocation: sourceLocation)
    }

    private func mode(_ path: String) -> mode_t {
        var status = stat()
        return stat(path, &status) == 0 ? status.st_mode & 0o7777 : 0
    }

    @Test("No output is written over the trace being read, by name or through a link, for any output option")
    func neverOverTheInput() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        let original = try trace(in: cli)
        #expect(symlink("t.sslog", cli.path("link.svg")) == 0)
        for command in [
            ["report", "t.sslog", "-o", "t.sslog"], ["export", "t.sslog", "--jsonl", "t.sslog"],
            ["export", "t.sslog", "--chrome-trace", "./t.sslog"], ["check", "t.sslog", "--format", "json=t.sslog"],
            ["check", "t.sslog", "--write-baseline", "t.sslog"], ["graph", "t.sslog", "-o", "link.svg"],
            ["timeline", "t.sslog", "-o", "link.svg"], ["report", "t.sslog", "-o", cli.path("t.sslog")],
        ] {
            let result = try cli.signalscope(command)
            expectOneLineError(result, "which this command reads")
            #expect(try Data(contentsOf: URL(fileURLWithPath: cli.path("t.sslog"))) == original, "\(command) left the trace as it was")
        }
        // Standard input that is the trace is protected too.
        let piped = try cli.run("/bin/bash", ["-c", #""$SIGNALSCOPE" report - -o t.sslog < t.sslog"#],
                                environment: ["SIGNALSCOPE": CLIRunner.product("signalscope")], timeLimit: 60)
        expectOneLineError(piped, "which this command reads")
        #expect(try Data(contentsOf: URL(fileURLWithPath: cli.path("t.sslog"))) == original)
    }

    @Test("A failed write to standard output is exit 1 with the reason, for every command that prints")
    func standardOutputWritesAreChecked() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        _ = try trace(in: cli)
        for command in [
            "check t.sslog --fail-on never --format sarif", "check t.sslog --fail-on never", "stats t.sslog", "rules",
            "export t.sslog --jsonl -", "report t.sslog -o -",
        ] {
            for redirect in ["> /dev/full", ">&-"] {
                let result = try cli.run("/bin/bash", ["-c", "\"$SIGNALSCOPE\" \(command) \(redirect)"],
                                         environment: ["SIGNALSCOPE": CLIRunner.product("signalscope")], timeLimit: 60)
                #expect(result.status == 1, "\(command) \(redirect): \(result.standardError)")
                #expect(result.standardError.contains("cannot write"), "\(command) \(redirect): \(result.standardError)")
            }
        }
    }

    @Test("New outputs are as private as the trace; a replaced file keeps its mode; a read-only one needs --force")
    func outputsKeepTheirOwnersIntent() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        _ = try trace(in: cli)
        #expect(try cli.signalscope("report", "t.sslog", "-o", "new.html").status == 0)
        #expect(try cli.signalscope("export", "t.sslog", "--jsonl", "new.jsonl").status == 0)
        #expect(try cli.signalscope("check", "t.sslog", "--fail-on", "never", "--format", "json=new.json").status == 0)
        for file in ["new.html", "new.jsonl", "new.json"] { #expect(mode(cli.path(file)) == 0o600, "\(file)") }
        // A world-readable trace makes outputs no more private than the user's umask.
        #expect(chmod(cli.path("t.sslog"), 0o644) == 0)
        #expect(try cli.signalscope("report", "t.sslog", "-o", "open.html").status == 0)
        #expect(mode(cli.path("open.html")) & 0o600 == 0o600)
        #expect(chmod(cli.path("t.sslog"), 0o600) == 0)

        #expect(FileManager.default.createFile(atPath: cli.path("kept.html"), contents: Data("old".utf8)))
        #expect(chmod(cli.path("kept.html"), 0o640) == 0)
        #expect(try cli.signalscope("report", "t.sslog", "-o", "kept.html").status == 0)
        #expect(mode(cli.path("kept.html")) == 0o640)

        #expect(FileManager.default.createFile(atPath: cli.path("locked.html"), contents: Data("old".utf8)))
        #expect(chmod(cli.path("locked.html"), 0o444) == 0)
        expectOneLineError(try cli.signalscope("report", "t.sslog", "-o", "locked.html"), "read-only (--force replaces it)")
        #expect(try String(contentsOfFile: cli.path("locked.html"), encoding: .utf8) == "old")
        #expect(try cli.signalscope("report", "t.sslog", "-o", "locked.html", "--force").status == 0)
        #expect(try String(contentsOfFile: cli.path("locked.html"), encoding: .utf8) != "old")
        #expect(mode(cli.path("locked.html")) == 0o444)
    }

    @Test("-o names a folder: said so; -o with a byte that is not UTF-8 writes that very name")
    func outputNames() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        _ = try trace(in: cli)
        try FileManager.default.createDirectory(atPath: cli.path("folder"), withIntermediateDirectories: true)
        expectOneLineError(try cli.signalscope("report", "t.sslog", "-o", "folder"), "folder is a directory")
        let odd = try cli.run(
            "/bin/bash", ["-c", #""$SIGNALSCOPE" report t.sslog -o "$(printf 'r\377.html')" && test -s "$(printf 'r\377.html')" && LC_ALL=C ls | LC_ALL=C grep -c '^r.*\.html$'"#],
            environment: ["SIGNALSCOPE": CLIRunner.product("signalscope")], timeLimit: 60)
        #expect(odd.status == 0 && odd.standardOutput.hasSuffix("1\n"), "\(odd.standardOutput)\(odd.standardError)")
        let formats = try cli.run(
            "/bin/bash", ["-c", #""$SIGNALSCOPE" check t.sslog --fail-on never --format "json=$(printf 'j\377.json')" && test -s "$(printf 'j\377.json')""#],
            environment: ["SIGNALSCOPE": CLIRunner.product("signalscope")], timeLimit: 60)
        #expect(formats.status == 0, "\(formats.standardError)")
    }
}
