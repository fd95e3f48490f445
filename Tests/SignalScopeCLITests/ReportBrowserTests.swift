import Foundation
import Testing

/// The report in a real browser: Debian's Chromium, headless (scripts/setup.sh installs it),
/// runs the page's script and gives back the DOM it made.
@Suite("The HTML report in a browser", .serialized, .timeLimit(.minutes(5)))
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

        try FileManager.default.createDirectory(at: Self.artifacts, withIntermediateDirectories: true)
        let screenshot = Self.artifacts.appendingPathComponent("report.png").path
        let shot = try browser(cli, ["--screenshot=\(screenshot)", "--window-size=1600,1000", url])
        #expect(shot.status == 0 && FileManager.default.fileExists(atPath: screenshot), "\(shot.standardError)")
    }

    @Test("A trace's names and paths stay text in the browser: a file named like a javascript: URL links to a file, a name with markup runs nothing")
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
        for (selection, expected) in [("node=n1", "href=\"./javascript:alert(1)//App.swift\""), ("event=0", "alert(3)")] {
            let dom = try browser(cli, ["--dump-dom", "file://\(cli.path("report.html"))#\(selection)"])
            #expect(dom.status == 0, "\(dom.standardError)")
            let html = dom.standardOutput
            #expect(html.contains("data-ready=\"true\""))
            #expect(html.contains(expected), "\(selection): \(expected) is on the page")
            #expect(!html.contains("href=\"javascript:"))
            #expect(!html.contains("<img src=\"x\"") && !html.contains("<script>alert"), "names are text, not elements")
            #expect(html.contains("&lt;img src=x onerror=alert(1)&gt;"), "and are shown")
        }
    }
}
