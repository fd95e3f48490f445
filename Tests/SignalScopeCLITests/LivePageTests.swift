import Foundation
import Testing

/// `signalscope live` in a real browser with interaction: the system Chromium, driven by
/// Playwright for Python (Tests/Browser/live_page.py), opens the page while the LiveSession
/// example runs, whose dismissed screen a session's subject keeps.
@Suite("The live page in a browser", .inBrowser, .serialized, .timeLimit(.minutes(10)))
struct LivePageTests {
    @Test("The report's own panes fill while the program runs (events, lanes, the graph), the retained screen's finding appears before it ends and highlights its path in the graph when clicked, an event shows its causes, and the page becomes the final report; the server is loopback only and wants its token")
    func liveRun() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        try FileManager.default.createDirectory(at: ReportBrowserTests.artifacts, withIntermediateDirectories: true)
        let screenshot = ReportBrowserTests.artifacts.appendingPathComponent("live.png").path
        let script = CLIRunner.repository.appendingPathComponent("Tests/Browser/live_page.py").path
        let result = try cli.run(
            "/usr/bin/env", ["python3", script, CLIRunner.product("signalscope"), CLIRunner.product("LiveSession"), screenshot],
            timeLimit: 240)
        #expect(result.status == 0, "\(result.standardError)")
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any], "\(result.standardError)")
        let announced = try #require(seen["announced"] as? String)
        #expect(announced.wholeMatch(of: /signalscope: live at http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{32}/) != nil, "\(announced)")
        #expect(seen["wrongToken"] as? Int == 403 && seen["noToken"] as? Int == 403)
        #expect(seen["foreignHost"] as? Int == 403, "a name that resolves to the loopback address from elsewhere is refused")
        #expect(seen["foreignOrigin"] as? Int == 403, "another origin cannot open the push channel")
        #expect(seen["boundAddresses"] as? [String] == ["127.0.0.1"], "listening on the loopback address only")
        let taken = try #require(seen["portTaken"] as? [String: Any])
        let takenError = taken["stderr"] as? String ?? ""
        #expect(taken["status"] as? Int == 1 && takenError.hasPrefix("signalscope: error: cannot serve the live page on 127.0.0.1:")
            && takenError.split(separator: "\n").count == 1, "a port in use is one line and exit 1: \(takenError)")
        #expect(seen["programRunningWhenEventsShown"] as? Bool == true, "events show while the program runs")
        let summary = try #require(seen["summaryAtFirstEvents"] as? String)
        #expect(summary.contains(" lanes · ") && !summary.contains(" 0 lanes"), "the timeline has lanes: \(summary)")
        #expect(seen["programRunningWhenGraphShown"] as? Bool == true && (seen["graphNodesWhileRunning"] as? Int ?? 0) >= 3,
            "the graph is drawn while the program runs")
        #expect(seen["clockAtFirstEvents"] as? String != seen["clockLater"] as? String,
            "the timeline grows as events come: \(seen["clockLater"] ?? ""), \(seen["messagesAtFirstEvents"] ?? "") then \(seen["messagesLater"] ?? "") messages, status \(seen["liveStatusLater"] ?? ""), first events at \(seen["firstEventsAt"] ?? "") s, read at \(seen["clockLaterAt"] ?? "") s, program running then: \(seen["programRunningWhenClockRead"] ?? ""), last error reading it: \(seen["clockError"] ?? "none")")
        #expect((seen["frames"] as? Int ?? 0) >= 1, "the page draws its timeline as messages come")
        #expect(seen["programRunningWhenFindingShown"] as? Bool == true, "the retained screen shows before the program ends")
        let text = try #require(seen["findingText"] as? String)
        #expect(text.contains("retained-after-release") && text.contains("ProfileScreen") && text.contains("LiveSession/main.swift:42"))
        let limitations = try #require(seen["limitationsWhileRunning"] as? String)
        #expect(!limitations.contains("killed or crashed") && limitations.contains("While the program runs"),
            "a running program's page does not say it crashed, and says what it judges: \(limitations)")
        #expect((seen["highlightedNodes"] as? Int ?? 0) >= 3, "clicking the finding highlights the subject, map and subscriber on its path in the graph")
        let path = try #require(seen["detailsPath"] as? [String])
        #expect(path.contains { $0.contains("which captures ProfileScreen") }, "\(path)")
        let chain = try #require(seen["causeChain"] as? [String])
        #expect(chain.count >= 2 && chain[0].contains("→ map") && chain.last?.contains("your code sent it to subject") == true,
            "a value map sent on shows the value the subject sent that caused it: \(chain)")
        #expect(seen["programRunningWhenInspected"] as? Bool == true)
        let final = try #require(seen["finalFindings"] as? [String])
        // At the end every rule judges the closing snapshot: the screen's leak is the
        // subscription it never ended, where the fix goes, and that finding says what the app
        // declared at line 42; one leak, one finding.
        #expect(final.contains("leaked-subscription@32") && !final.contains("retained-after-release@42"), "the final report: \(final)")
        #expect(seen["exitStatus"] as? Int == 0, "--exit-when-done exits once the page has the end")
        // The deadline is half a second; the page has the finding within a second of it
        // (measured from signalscope's start, which the program's start follows).
        let findingAt = try #require(seen["findingAt"] as? Double), eventsAt = try #require(seen["firstEventsAt"] as? Double)
        #expect(findingAt - eventsAt < 1.5, "finding at \(findingAt) s, first events at \(eventsAt) s")
    }
}
