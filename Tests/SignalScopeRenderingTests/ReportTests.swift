import Foundation
import FoundationXML
import SignalScopeTools
import Testing

private func ownPart(of trace: Trace) -> Trace {
    trace.restricted { $0.file == "SignalScopeRenderingTests/ReportTests.swift" }
}

/// A search field throttled on a `TestScheduler`, whose results a listener keeps observing on
/// a subject nobody completes: causes across the scheduler, one finding (the recording).
func searchScenario() -> Trace {
    final class Listener {
        var seen: [String] = []
    }
    var keep: [AnyObject] = []
    let trace = Tracer.record(values: true) {
        let scheduler = TestScheduler()
        let query = Subject<String>().named("query")
        let results = Subject<String>().named("results")
        let listener = Listener()
        query.throttle(0.3, on: scheduler).map { "results for \($0)" }.subscribeNext { results.sendNext($0) }
        results.subscribeNext { listener.seen.append($0) }
        query.sendNext("s")
        scheduler.advance(by: 0.1)
        query.sendNext("sw")
        scheduler.advance(by: 1)
        keep = [query, results, scheduler]
    }
    _ = keep
    return trace
}

/// The part of ``searchScenario()`` its code made, and its analysis.
private func analysedSearch() -> (Trace, AnalysisReport) {
    let trace = ownPart(of: searchScenario())
    return (trace, trace.analyze())
}

private func report(_ trace: Trace, _ analysis: AnalysisReport, title: String = "search") throws -> HTMLReport {
    let graph = SignalGraph(trace: trace, report: analysis)
    let svg = try GraphvizRenderer.render(DOTWriter.dot(graph), format: .svg)
    return HTMLReport(
        trace: trace, analysis: analysis, graph: graph, graphSVG: String(decoding: svg, as: UTF8.self),
        options: .init(title: title))
}

private func json(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
}

@Suite("The HTML report", .timeLimit(.minutes(10)))
struct ReportTests {
    @Test("The report's data section matches its golden file")
    func goldenData() throws {
        let (trace, analysis) = analysedSearch()
        // Findings name subscriptions by their process-wide ids, which other tests running
        // meanwhile move on.
        let data = try report(trace, analysis).data().replacing(/#\d+/, with: "#N")
        try expectGolden(data + "\n", "search-report-data", extension: "json")
    }

    @Test("The page carries its script and style as their files hold them, character for character")
    func assetsAreTheFiles() throws {
        let (trace, analysis) = analysedSearch()
        let page = try report(trace, analysis).html()
        let assets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/SignalScopeRendering/Report/Assets")
        // Each followed by the end of its section, so that a lost last line break shows too.
        for (file, sectionEnd) in [("report.js", "\n//]]>"), ("report.css", "/*]]>*/")] {
            let text = try String(contentsOf: assets.appendingPathComponent(file), encoding: .utf8)
            #expect(text.count > 1_000 && page.contains(text + sectionEnd), "\(file) is in the page as it is")
        }
    }

    @Test("The data names each event's cause: the listener's value goes back, across the scheduler, to the value typed")
    func causalChainInData() throws {
        let (trace, analysis) = analysedSearch()
        let data = try json(try report(trace, analysis).data())
        let events = try #require(data["events"] as? [[Any]])
        let subscriptions = try #require(data["subscriptions"] as? [[String: Any]])
        func title(_ event: [Any]) -> String { (event[0] as? Int).flatMap { subscriptions[$0]["title"] as? String } ?? "?" }
        let last = try #require(events.lastIndex { title($0) == "subject \"results\"" && $0[1] as? String == "n" })
        var chain = [last]
        while let cause = events[chain.last!][4] as? Int { chain.append(cause) }
        let kinds = chain.map { events[$0][5] as? String ?? "" }
        #expect(kinds.contains("s"), "one step ran in the action throttle scheduled: \(kinds)")
        #expect(kinds.last == "", "the chain ends at a value nothing recorded caused")
        #expect(title(events[chain.last!]) == "throttle" || title(events[chain.last!]) == "subject \"query\"")
        if let root = events[chain.last!][3] as? String { #expect(root == "sw", "the value typed last") }
        #expect((data["findings"] as? [[String: Any]])?.isEmpty == false)
        #expect(data["clock"] as? String == "virtual")
    }

    @Test("The page is well-formed XML whatever the names: no name becomes markup, and the data keeps every name exactly")
    func hostileNames() throws {
        let hostile = "\"'</script><script>alert(1)</script> ]]> <!-- & \u{1B}[31m \u{202E}evil\n🚀"
        let trace = ownPart(of: Tracer.record(values: true) {
            let subject = Subject<String>().named(hostile)
            subject.map { $0 }.named("</text><svg onload=alert(2)>").subscribeNext { _ in }
            subject.sendNext(hostile)
            subject.sendCompleted()
        })
        let page = try report(trace, trace.analyze(), title: hostile).html()
        let document = try XMLDocument(data: Data(page.utf8))
        let scripts = try document.nodes(forXPath: "//*[local-name()='script']")
        #expect(scripts.count == 2, "the data and the page's own script, nothing injected")
        #expect(try document.nodes(forXPath: "//*[@onload]").isEmpty)
        let dataElement = try #require(try document.nodes(forXPath: "//*[local-name()='script'][@type='application/json']").first)
        let data = try json(try #require(dataElement.stringValue))
        let titles = (data["nodes"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
        #expect(titles.contains("subject \"\(hostile)\""), "the name, exactly")
        let events = data["events"] as? [[Any]] ?? []
        #expect(events.contains { $0[3] as? String == hostile }, "the value, exactly")
        #expect(data["title"] as? String == hostile)
        #expect(!page.contains("\u{1B}") && !page.contains("\u{202E}"), "escape sequences and overrides never reach the page raw")
    }
}
