import Foundation
import Testing

/// `check --artifacts DIR`: a failing check leaves its traces and its report in DIR for CI to
/// upload; a passing one leaves nothing.
@Suite("Evidence kept when a check fails", .timeLimit(.minutes(10)))
struct ArtifactsTests {
    @Test("A failing check of a wrapped command keeps the report and the trace under the command's name, and names them; a second run does not replace them; a passing check writes nothing")
    func failingCheckKeepsEvidence() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        let failing = try cli.signalscope(["check", "--artifacts", "evidence", "--", CLIRunner.product("PlantedLeaks")])
        #expect(failing.status == 2, "\(failing.standardError)")
        #expect(failing.standardError.contains("the failing check's report is evidence/PlantedLeaks.html, its trace evidence/PlantedLeaks.sslog"),
                "\(failing.standardError)")
        let page = try String(contentsOfFile: cli.path("evidence/PlantedLeaks.html"), encoding: .utf8)
        #expect(page.contains("id=\"signalscope-data\"") && page.contains("never-completed-subject"))
        // The kept trace is the one judged: checked again, the same findings.
        let again = try cli.signalscope(["check", "evidence/PlantedLeaks.sslog"])
        #expect(again.status == 2 && again.standardOutput.contains("never-completed-subject"), "\(again.standardOutput)")

        let second = try cli.signalscope(["check", "--artifacts", "evidence", "--", CLIRunner.product("PlantedLeaks")])
        #expect(second.status == 2)
        let kept = try FileManager.default.contentsOfDirectory(atPath: cli.path("evidence")).sorted()
        #expect(kept == ["PlantedLeaks-2.html", "PlantedLeaks-2.sslog", "PlantedLeaks.html", "PlantedLeaks.sslog"], "\(kept)")

        let passing = try cli.signalscope(["check", "--artifacts", "clean", "--", CLIRunner.product("SearchHints")])
        #expect(passing.status == 0, "\(passing.standardOutput)\(passing.standardError)")
        #expect(!FileManager.default.fileExists(atPath: cli.path("clean")), "nothing is written when the check passes")
    }

    @Test("A failing check of a trace file keeps it under the trace's name, made safe for any file system and upload step")
    func traceFileEvidence() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        _ = try cli.signalscope(["record", "-o", "t.sslog", "--", CLIRunner.product("PlantedLeaks")])
        for (name, expected) in [("nightly run.sslog", "nightly-run"), ("a\nb😀;rm -rf $HOME.sslog", "a-b-rm-rf-HOME"), ("..sslog", "check")] {
            try FileManager.default.copyItem(atPath: cli.path("t.sslog"), toPath: cli.path(name))
            let failing = try cli.signalscope(["check", name, "--artifacts", "out-\(expected)"])
            #expect(failing.status == 2)
            #expect(try FileManager.default.contentsOfDirectory(atPath: cli.path("out-\(expected)")).sorted() == ["\(expected).html", "\(expected).sslog"])
        }
    }
}
