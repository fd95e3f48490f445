import Foundation
import Testing

/// The report in a real browser: Debian's Chromium, headless (scripts/setup.sh installs it),
/// runs the page's script and gives back the DOM it made.
@Suite("The HTML report in a browser", .inBrowser, .serialized, .timeLimit(.minutes(10)))
struct ReportBrowserTests {
    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Where CI keeps what it shows people: `SIGNALSCOPE_ARTIFACTS`, else `artifacts/`.
    static var artifacts: URL {
        ProcessInfo.processInfo.environment["SIGNALSCOPE_ARTIFACTS"].map { URL(fileURLWithPath: $0) }
            ?? CLIRunner.repository.appendingPathComponent("artifacts")
    }

    private func browser(_ cli: CLIRunner, _ arguments: [String]) throws -> CLIRunner.Result {
        let chromium = try #require(Self.chromium, "Chromium is missing: run scripts/setup.sh")
        // A profile of its own, so that runs never share state or wait on each other's lock.
        return try cli.run(
            chromium,
            ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=\(cli.path("profile"))",
             "--virtual-time-budget=10000"] + arguments, timeLimit: 120)
    }

    @Test("Selecting a finding highlights its path in the graph; selecting an event shows the chain that caused it")
    func findingAndCausalChain() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        #expect(try cli.signalscope("record", "--values", "-o", "t.sslog", "--", CLIRunner.product("PlantedLeaks")).status == 0)
        #expect(try cli.signalscope("report", "t.sslog", "-o", "report.html").status == 0)
        let page = try String(contentsOfFile: cli.path("report.html"), encoding: .utf8)

        // What the page should show, from its own data.
        let dataText = try #require(page.firstMatch(of: /id="signalscope-data">(.*?)<\/script>/.dotMatchesNewlines())?.output.1)
        let data = try #require(try JSONSerialization.jsonObject(with: Data(dataText.utf8)) as? [String: Any])
        let finding = try #require((data["findings"] as? [[String: Any]])?.first)
        let pathNodes = try #require(finding["nodes"] as? [String])
        #expect(!pathNodes.isEmpty)
        let events = try #require(data["events"] as? [[Any]])
        let caused = try #require(events.indices.last { events[$0][4] is Int }, "the example has an event another caused")
        var chain = [caused]
        while let cause = events[chain.last!][4] as? Int { chain.append(cause) }

        let url = "file://\(cli.path("report.html"))#finding=0&event=\(caused)"
        let dom = try browser(cli, ["--dump-dom", url])
        #expect(dom.status == 0, "\(dom.standardError)")
        let html = dom.standardOutput
        #expect(html.contains("data-ready=\"true\""), "the page's script ran to the end")
        let highlighted = Set(html.matches(of: /<g id="(n\d+)" class="node[^"]*\bhl\b/).map { String($0.output.1) })
        #expect(highlighted == Set(pathNodes), "exactly the finding's nodes are highlighted")
        let chainList = try #require(html.firstMatch(of: /<ol id="chain">(.*?)<\/ol>/.dotMatchesNewlines())?.output.1)
        #expect(chainList.matches(of: /<li\s/).count == chain.count, "one entry per event of the chain")
        #expect(chainList.contains("class=\"root\"") && chainList.contains("No earlier event caused it"))
        // Each name in the findings' proofs that the graph draws is a link to its node.
        let findings = try #require(data["findings"] as? [[String: Any]])
        let steps = findings.compactMap { $0["steps"] as? [[[Any]]] }
        #expect(steps.count == findings.count, "every finding has its steps")
        let linked = Set(steps.joined().joined().compactMap { $0.count == 2 ? $0[1] as? String : nil })
        #expect(!linked.isEmpty, "the finding's proof names something the graph draws")
        let links = Set(html.matches(of: /<a href="#" class="entity" data-node="(n\d+)"/).map { String($0.output.1) })
        #expect(links == linked, "each such name links to its node")

        try FileManager.default.createDirectory(at: Self.artifacts, withIntermediateDirectories: true)
        let screenshot = Self.artifacts.appendingPathComponent("report.png").path
        let shot = try browser(cli, ["--screenshot=\(screenshot)", "--window-size=1600,1000", url])
        #expect(shot.status == 0 && FileManager.default.fileExists(atPath: screenshot), "\(shot.standardError)")
    }

    @Test("A trace's names and paths stay text in the browser: a file named like a javascript: URL is text, a name with markup runs nothing")
    func hostileTraceInTheBrowser() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        var log = CraftedLog()
        log.node(1, name: "<img src=x onerror=alert(1)>", file: "javascript:alert(1)//App.swift")
        log.subscribe(1, to: 1, file: "javascript:alert(2)//App.swift")
        log.next(1, "</script><script>alert(3)</script>")
        log.snapshot()
        log.end()
        try log.write(to: cli.path("hostile.sslog"))
        #expect(try cli.signalscope("report", "hostile.sslog", "-o", "report.html").status == 0)
        // The node's panel (its site as a link), then an event's causal chain (its value).
        for (selection, expected) in [("node=n1", ">javascript:alert(1)//App.swift:3<"), ("event=0", "alert(3)")] {
            let dom = try browser(cli, ["--dump-dom", "file://\(cli.path("report.html"))#\(selection)"])
            #expect(dom.status == 0, "\(dom.standardError)")
            let html = dom.standardOutput
            #expect(html.contains("data-ready=\"true\""))
            #expect(html.contains(expected), "\(selection): \(expected) is on the page")
            #expect(!html.contains("href=\"javascript:") && !html.contains("href=\"./javascript:"), "a path the project does not hold is text")
            #expect(!html.contains("<img src=\"x\"") && !html.contains("<script>alert"), "names are text, not elements")
            #expect(html.contains("&lt;img src=x onerror=alert(1)&gt;"), "and are shown")
        }
    }

    @Test("Every link of a page made from a hostile trace is clicked and nothing runs: links go only to files the project holds, through an allowed editor scheme")
    func clickingEveryLinkRunsNothing() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        // The project the report is made in holds two of the trace's files, one with a
        // colon and a quote in its name.
        let sources = cli.path("Sources/App")
        try FileManager.default.createDirectory(atPath: sources, withIntermediateDirectories: true)
        for file in ["Main.swift", "We'ird:name.swift"] {
            #expect(FileManager.default.createFile(atPath: sources + "/" + file, contents: Data("// app\n".utf8)))
        }
        let hostile = [
            "javascript:document.title='x'//a.swift", "//evil.example/share/x.swift", "../Secret.swift",
            "/etc/passwd", "data:text/html,<script>alert(1)</script>", "App/Main.swift", "App/We'ird:name.swift",
        ]
        var log = CraftedLog()
        for (index, file) in hostile.enumerated() {
            let id = UInt64(index + 1)
            log.node(id, name: "n\(id)", file: file)
            log.subscribe(id, to: id, file: file)
            log.next(id, "v")
        }
        log.snapshot()
        log.end()
        try log.write(to: cli.path("hostile.sslog"))

        for template in ["{path}:{line}", "javascript:alert(1)//{path}", "data:text/html,{path}"] {
            let refused = try cli.signalscope("report", "hostile.sslog", "-o", "refused.html", "--editor-url", template)
            #expect(refused.status == 1 && refused.standardError.split(separator: "\n").count == 1, "\(template): \(refused.standardError)")
            #expect(refused.standardError.contains("vscode"), "the allowed schemes are named")
        }
        for (page, editor) in [("plain.html", []), ("editor.html", ["--editor-url", "vscode://file/{path}:{line}"])] {
            let made = try cli.signalscope(["report", "hostile.sslog", "-o", page] + editor)
            #expect(made.status == 0, "\(made.standardError)")
            let clicked = try cli.run("/usr/bin/env", ["python3", CLIRunner.repository.appendingPathComponent("Tests/Browser/click_every_link.py").path, cli.path(page)], timeLimit: 240)
            #expect(clicked.status == 0, "\(clicked.standardError)")
            let seen = try #require(try JSONSerialization.jsonObject(with: Data(clicked.standardOutput.utf8)) as? [String: [Any]])
            let hrefs = Set((seen["hrefs"] as? [String] ?? []).filter { !$0.hasPrefix("#") })
            let expected: Set<String> =
                editor.isEmpty
                ? ["./Sources/App/Main.swift", "./Sources/App/We%27ird%3Aname.swift"]
                : ["vscode://file/\(cli.folder.path)/Sources/App/Main.swift:3", "vscode://file/\(cli.folder.path)/Sources/App/We%27ird%3Aname.swift:3",
                   "vscode://file/\(cli.folder.path)/Sources/App/Main.swift:5", "vscode://file/\(cli.folder.path)/Sources/App/We%27ird%3Aname.swift:5"]
            #expect(hrefs.isSubset(of: expected) && !hrefs.isEmpty, "\(page): \(hrefs)")
            #expect(seen["dialogs"]?.isEmpty == true, "\(page): \(seen["dialogs"] ?? [])")
            #expect(seen["titleChanges"]?.isEmpty == true, "\(page): \(seen["titleChanges"] ?? [])")
            let destinations = seen["destinations"] as? [String] ?? []
            #expect(destinations.allSatisfy { $0.hasPrefix("file://\(cli.folder.path)/Sources/App/") || $0.hasPrefix("vscode:") || $0.hasPrefix("about:") || $0.hasPrefix("chrome-error:") },
                    "\(page): \(destinations)")
        }
    }
}
