import Foundation
import Testing
#if canImport(FoundationXML)
import FoundationXML
import SignalScopeTools
#endif

@Suite("signalscope check, end to end", .timeLimit(.minutes(10)))
struct CheckCommandTests {
    let plantedLeaks = CLIRunner.product("PlantedLeaks")

    func decodeJSON(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func wrappingAProgramFindsExactlyItsPlantedLeaks() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        let result = try cli.signalscope("check", "--format", "json=report.json", "--format", "text", "--", plantedLeaks)
        #expect(result.status == 2, "failing findings exit 2; stderr: \(result.standardError)")
        #expect(result.standardError.contains("PlantedLeaks: two leaks planted"), "the program's output goes to standard error")
        #expect(result.standardOutput.contains("check failed (2 failing)"))

        let report = try decodeJSON(cli.path("report.json"))
        #expect(report["version"] as? Int == 1)
        let findings = try #require(report["findings"] as? [[String: Any]])
        let found = CLIRunner.ruleAndLine(of: findings)
        #expect(found == (try CLIRunner.plantedMarkers(in: "PlantedLeaks")))
        for finding in findings {
            #expect((finding["path"] as? [String])?.isEmpty == false)
            #expect((finding["hint"] as? String)?.isEmpty == false)
            #expect(finding["severity"] as? String == "error")
            #expect((finding["count"] as? Int ?? 0) >= 1)
        }
        let summary = try #require(report["summary"] as? [String: Int])
        #expect(summary["errors"] == 2 && summary["warnings"] == 0 && summary["notes"] == 0)
    }

    @Test("A report names every source site in one style: the finding's location and each step of its path")
    func oneStyleOfPath() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        let source = cli.folder.appendingPathComponent("Examples/PlantedLeaks")
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
        try Data().write(to: source.appendingPathComponent("main.swift"))
        let result = try cli.signalscope("check", "--format", "json", "--", plantedLeaks)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        for finding in try #require(report["findings"] as? [[String: Any]]) {
            #expect((finding["location"] as? [String: Any])?["file"] as? String == "Examples/PlantedLeaks/main.swift")
            let steps = try #require(finding["path"] as? [String])
            #expect(steps.contains { $0.contains("Examples/PlantedLeaks/main.swift:") })
            for step in steps {
                #expect(!step.replacingOccurrences(of: "Examples/PlantedLeaks/main.swift", with: "").contains("PlantedLeaks/main.swift"), "\(step)")
            }
        }
    }

    @Test func aCleanRunPassesWithExitZero() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        let result = try cli.signalscope("check", "--", plantedLeaks, "clean")
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(result.standardOutput.contains("0 errors, 0 warnings, 0 notes; check passed"))
    }

    @Test func sarifHasTheRequiredStructure() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        _ = try cli.signalscope("record", "-o", "leaks.sslog", "--", plantedLeaks)
        let result = try cli.signalscope("check", "leaks.sslog", "--format", "sarif=report.sarif")
        #expect(result.status == 2)
        let sarif = try decodeJSON(cli.path("report.sarif"))
        #expect(sarif["version"] as? String == "2.1.0")
        let run = try #require((sarif["runs"] as? [[String: Any]])?.first)
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "signalscope")
        let ruleIDs = try #require(driver["rules"] as? [[String: Any]]).compactMap { $0["id"] as? String }
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == 2)
        for result in results {
            let ruleID = try #require(result["ruleId"] as? String)
            #expect(ruleIDs.contains(ruleID))
            #expect(result["ruleIndex"] as? Int == ruleIDs.firstIndex(of: ruleID))
            #expect(result["level"] as? String == "error")
            #expect(((result["message"] as? [String: Any])?["text"] as? String)?.isEmpty == false)
            let location = try #require((result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
            let uri = (location["artifactLocation"] as? [String: Any])?["uri"] as? String
            #expect(uri?.hasSuffix("PlantedLeaks/main.swift") == true)
            #expect(((location["region"] as? [String: Any])?["startLine"] as? Int ?? 0) > 0)
        }
    }

    @Test func junitIsWellFormedWithAFailurePerFinding() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        let result = try cli.signalscope("check", "--format", "junit=report.xml", "--", plantedLeaks)
        #expect(result.status == 2)
        let document = try XMLDocument(contentsOf: URL(fileURLWithPath: cli.path("report.xml")))
        let testcases = try document.nodes(forXPath: "//testcase")
        #expect(testcases.count == RuleID.allCases.count + 1, "one per rule, and complete-analysis")
        let failures = try document.nodes(forXPath: "//testcase/failure")
        #expect(failures.count == 2)
        let failedRules = try Set(document.nodes(forXPath: "//testcase[failure]/@name").compactMap { (node: XMLNode) in node.stringValue })
        #expect(failedRules == ["self-captured-observer", "never-completed-subject"])
    }

    @Test func githubAnnotationsAreWorkflowCommands() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        let result = try cli.signalscope("check", "--format", "github", "--", plantedLeaks)
        let annotations = result.standardOutput.split(separator: "\n").filter { $0.hasPrefix("::") }
        #expect(annotations.count == 2)
        for annotation in annotations {
            #expect(annotation.hasPrefix("::error file="))
            #expect(annotation.contains(",line="))
            #expect(annotation.contains(",title=signalscope "))
            #expect(!annotation.dropFirst(2).contains("\n"))
        }
    }

    @Test func failOnNeverAndBaselinePass() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        _ = try cli.signalscope("record", "-o", "leaks.sslog", "--", plantedLeaks)
        #expect(try cli.signalscope("check", "leaks.sslog", "--fail-on", "never").status == 0)
        let written = try cli.signalscope("check", "leaks.sslog", "--fail-on", "never", "--write-baseline", "baseline.json")
        #expect(written.status == 0)
        let withBaseline = try cli.signalscope("check", "leaks.sslog", "--baseline", "baseline.json", "--format", "json")
        #expect(withBaseline.status == 0, "stderr: \(withBaseline.standardError)")
        #expect(withBaseline.standardOutput.contains("\"baseline\" : true"))
    }

    @Test("The HTML page shows the findings of the check's one analysis, with the chosen rules and the baseline's marks, as JSON does")
    func htmlPageMatchesJSON() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        _ = try cli.signalscope("record", "-o", "leaks.sslog", "--", plantedLeaks)
        // A baseline of what retain-cycle alone reports, then a check with one rule disabled.
        _ = try cli.signalscope("check", "leaks.sslog", "--rules", "retain-cycle", "--fail-on", "never", "--write-baseline", "baseline.json")
        let options = ["--disable-rules", "self-captured-observer", "--baseline", "baseline.json", "--fail-on", "never"]
        let result = try cli.signalscope(["check", "leaks.sslog", "--format", "json", "--format", "html=page.html"] + options)
        #expect(result.status == 0, "\(result.standardError)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let json = try #require(report["findings"] as? [[String: Any]]).map { finding in
            let location = finding["location"] as? [String: Any]
            return "\(finding["rule"]!)@\(location?["line"] ?? "?") baseline=\(finding["baseline"]!)"
        }
        let page = try String(contentsOfFile: cli.path("page.html"), encoding: .utf8)
        let start = try #require(page.range(of: "<script type=\"application/json\" id=\"signalscope-data\">"))
        let end = try #require(page.range(of: "</script>", range: start.upperBound..<page.endIndex))
        let data = try #require(try JSONSerialization.jsonObject(with: Data(page[start.upperBound..<end.lowerBound].utf8)) as? [String: Any])
        let html = try #require(data["findings"] as? [[String: Any]]).map { finding in
            let site = finding["site"] as? [String: Any]
            return "\(finding["rule"]!)@\(site?["line"] ?? "?") baseline=\(finding["baseline"]!)"
        }
        #expect(html.sorted() == json.sorted())
        #expect(json.contains { $0.contains("baseline=1") || $0.contains("baseline=true") }, "\(json)")
        #expect(!json.contains { $0.hasPrefix("self-captured-observer") })
    }

    @Test("Choosing rules changes who reports a leak, never whether: the planted cycles still fail the check")
    func selectionNeverHidesALeak() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        _ = try cli.signalscope("record", "-o", "leaks.sslog", "--", plantedLeaks)
        for selection in [["--disable-rules", "self-captured-observer,never-completed-subject"], ["--rules", "retain-cycle"]] {
            let result = try cli.signalscope(["check", "leaks.sslog", "--format", "json"] + selection)
            #expect(result.status == 2, "\(selection): \(result.standardOutput)")
            #expect(result.standardOutput.contains("\"rule\" : \"retain-cycle\""), "\(selection)")
        }
        let none = try cli.signalscope("check", "leaks.sslog", "--rules", "unhandled-error")
        #expect(none.status == 0, "no chosen rule can report a cycle: \(none.standardOutput)")
    }

    @Test("A wrapped command that fails exits 4, with its own status on standard error; failing findings still exit 2")
    func aFailingWrappedCommandExitsFour() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        for status in ["1", "2", "3"] {
            let failing = try cli.signalscope("check", "--", plantedLeaks, "clean", status)
            #expect(failing.status == 4, "a command's status \(status) never reads as one of check's own")
            #expect(failing.standardError.contains("the checked command \(plantedLeaks) exited with status \(status)"))
            #expect(failing.standardOutput.contains("check passed"), "the trace is still analysed")
        }
        #expect(try cli.signalscope("check", "--ignore-exit-code", "--", plantedLeaks, "clean", "3").status == 0)
        #expect(try cli.signalscope("check", "--", plantedLeaks, "leaky", "1").status == 2)
        let recorded = try cli.signalscope("record", "-o", "t.sslog", "--", plantedLeaks, "clean", "1")
        #expect(recorded.status == 4)
        #expect(FileManager.default.fileExists(atPath: cli.path("t.sslog")), "the trace is kept")
    }

    @Test("A report on standard output is never mixed with what the wrapped program prints")
    func reportAloneOnStandardOutput() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        let result = try cli.signalscope("check", "--format", "json", "--", plantedLeaks)
        #expect(result.status == 2)
        let report = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        #expect(report?["findings"] != nil, "standard output is the JSON report alone: \(result.standardOutput)")
        #expect(result.standardError.contains("PlantedLeaks: two leaks planted"), "the program's output went to standard error")
    }

    @Test("record warns when several processes write one trace, keeps the last, and %p keeps each")
    func recordSeveralProcesses() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        let twice = "\"$0\" >/dev/null && \"$0\" clean >/dev/null"
        let one = try cli.signalscope("record", "-o", "t.sslog", "--", "/bin/sh", "-c", twice, plantedLeaks)
        #expect(one.status == 0, "\(one.standardError)")
        #expect(one.standardError.contains("warning: 2 traced processes wrote traces"))
        #expect(one.standardError.contains("-o 't-%p.sslog'"))
        let kept = try cli.signalscope("check", "t.sslog", "--fail-on", "warning")
        #expect(kept.status == 0, "the clean run finished last and is the one kept: \(kept.standardOutput)")

        let each = try cli.signalscope("record", "-o", "each-%p.sslog", "--", "/bin/sh", "-c", twice, plantedLeaks)
        #expect(each.status == 0)
        #expect(!each.standardError.contains("warning"))
        let files = try FileManager.default.contentsOfDirectory(atPath: cli.folder.path).filter { $0.hasPrefix("each-") }
        #expect(files.count == 2)
    }

    @Test func everyTracedProcessOfACommandIsChecked() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        let twice = "\"$0\" >/dev/null && \"$0\" clean >/dev/null && \"$0\" >/dev/null"
        let result = try cli.signalscope("check", "--keep-traces", "traces", "--format", "json", "--", "/bin/sh", "-c", twice, plantedLeaks)
        #expect(result.status == 2, "stderr: \(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: cli.path("traces")).count == 3)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let findings = try #require(report["findings"] as? [[String: Any]])
        #expect(findings.count == 2, "the same leak in two processes is one finding")
        let subject = try #require(findings.first { $0["rule"] as? String == "never-completed-subject" })
        #expect(subject["count"] as? Int == 2)
    }
}

@Suite("Source locations in reports", .timeLimit(.minutes(10)))
struct SourceResolutionTests {
    /// A finding at each file ID: an error nobody handles, reported where it was subscribed.
    private func unhandledErrors(at fileIDs: [String]) -> CraftedLog {
        var log = CraftedLog()
        for (index, fileID) in fileIDs.enumerated() {
            let id = UInt64(index + 1)
            log.node(id)
            log.subscribe(id, to: id, file: fileID, line: 5)
            log.observerStored(id, handlers: 1)
            log.error(id, "boom")
        }
        log.snapshot()
        log.end()
        return log
    }

    @Test("A file ID resolves to the package's module folder first, never into dependencies, else by a bounded search")
    func resolution() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        for file in [
            "Sources/App/Main.swift", "Legacy/App/Main.swift", "node_modules/kit/App/Main.swift",
            "Pods/Kit/Kit/Pod.swift", "Modules/Feature/Sources/Feature/Screen.swift",
        ] {
            let url = URL(fileURLWithPath: cli.path(file))
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data().write(to: url)
        }
        try unhandledErrors(at: ["App/Main.swift", "Kit/Pod.swift", "Feature/Screen.swift", "Gone/Missing.swift"])
            .write(to: cli.path("t.sslog"))
        let result = try cli.signalscope("check", "t.sslog", "--fail-on", "never", "--format", "github")
        let files = Set(result.standardOutput.split(separator: "\n").compactMap { line in
            line.split(separator: ",").first?.split(separator: "file=").last.map(String.init)
        })
        #expect(files == ["Sources/App/Main.swift", "Kit/Pod.swift", "Modules/Feature/Sources/Feature/Screen.swift", "Gone/Missing.swift"], "\(result.standardOutput)")
    }
}
