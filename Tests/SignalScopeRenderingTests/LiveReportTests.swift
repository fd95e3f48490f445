import Foundation
import FoundationXML
import SignalScopeTools
import Testing

/// The live page's data (`LiveReport`): the HTML report's search scenario, its records taken in batches, as a running
/// program writes them, make the same events, causes and subscriptions as the report of the
/// whole trace, and the graph messages name what the report's graph does.
@Suite("The live report", .timeLimit(.minutes(10)))
struct LiveReportTests {
    /// The part of the search recording its code made (in ReportTests.swift).
    private static func ownPart(of trace: Trace) -> Trace {
        trace.restricted { $0.file == "SignalScopeRenderingTests/ReportTests.swift" }
    }

    private static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// The page's data after every message, put together as the page's script does.
    private struct PageData {
        var subscriptions: [[String: Any]] = []
        var lanes: [[String: Any]] = []
        var marks: [Int: [[Any]]] = [:]
        var ends: [Int: Int] = [:]
        var events: [[Any]] = []
        var graph: [String: Any] = [:]

        mutating func take(_ message: [String: Any]) throws {
            switch message["kind"] as? String {
            case "timeline":
                subscriptions += try #require(message["subscriptions"] as? [[String: Any]])
                lanes += try #require(message["lanes"] as? [[String: Any]])
                events += try #require(message["events"] as? [[Any]])
                for pair in try #require(message["marks"] as? [[Any]]) {
                    let lane = try #require(pair[0] as? Int)
                    #expect(lane < lanes.count, "a mark on a lane the page has")
                    marks[lane, default: []].append(try #require(pair[1] as? [Any]))
                }
                for pair in try #require(message["ends"] as? [[Int]]) { ends[pair[0]] = pair[1] }
                for patch in try #require(message["causes"] as? [[Any]]) {
                    let event = try #require(patch[0] as? Int)
                    events[event][4] = patch[1]
                    events[event][5] = patch[2]
                }
            case "graph":
                graph = message
            default:
                Issue.record("an unknown message: \(message)")
            }
        }
    }

    @Test("Records taken in batches make the whole trace's events, in order, each naming its cause, on a lane per subscription")
    func batchesMakeTheWholeTimeline() throws {
        let trace = Self.ownPart(of: searchScenario())
        let live = LiveReport(options: .init(title: "search"))
        var page = PageData()
        for batch in stride(from: 0, to: trace.records.count, by: 5).map({ trace.records[$0..<min($0 + 5, trace.records.count)] }) {
            if let message = live.add(Array(batch)) { try page.take(try Self.json(message)) }
        }
        let whole = try Self.json(HTMLReport(
            trace: trace, analysis: trace.analyze(), graph: SignalGraph(trace: trace), graphSVG: nil, options: .init(title: "search")
        ).data())
        let wholeEvents = try #require(whole["events"] as? [[Any]])
        #expect(page.subscriptions.count == trace.subscriptions.count && page.lanes.count == page.subscriptions.count)
        #expect(page.events.count == wholeEvents.count, "every delivered event, once")
        for (index, event) in page.events.enumerated() {
            let whole = wholeEvents[index]
            #expect(event[1] as? String == whole[1] as? String && event[3] as? String == whole[3] as? String, "\(event) \(whole)")
            #expect(event[5] as? String == whole[5] as? String, "the same kind of cause")
            if let cause = event[4] as? Int { #expect(cause < index && whole[4] as? Int == cause, "the same cause, an earlier event") }
            let subscription = try #require(event[0] as? Int)
            #expect(page.subscriptions[subscription]["title"] as? String != nil)
            #expect(page.marks[subscription]?.contains { $0[2] as? Int == index } == true, "the event is a mark on its subscription's lane")
        }
        let results = try #require(page.subscriptions.firstIndex { $0["title"] as? String == "subject \"results\"" })
        #expect(page.lanes[results]["end"] is NSNull && page.ends[results] == nil, "a subscription never ended is still live")
    }

    @Test("Records a later poll brings that are older than an earlier poll's (another thread's buffer) still make every event, on its subscription's lane, with its cause")
    func lateRecords() throws {
        let trace = Self.ownPart(of: searchScenario())
        let live = LiveReport(options: .init(title: "search"))
        var page = PageData()
        // Polls of three records, each pair of polls read in the opposite order.
        var polls = stride(from: 0, to: trace.records.count, by: 3).map { Array(trace.records[$0..<min($0 + 3, trace.records.count)]) }
        for index in stride(from: 0, to: polls.count - 1, by: 2) { polls.swapAt(index, index + 1) }
        for poll in polls {
            if let message = live.add(poll) { try page.take(try Self.json(message)) }
        }
        let whole = try Self.json(HTMLReport(
            trace: trace, analysis: trace.analyze(), graph: SignalGraph(trace: trace), graphSVG: nil, options: .init(title: "search")
        ).data())
        let wholeEvents = try #require(whole["events"] as? [[Any]])
        let wholeSubscriptions = try #require(whole["subscriptions"] as? [[String: Any]])
        /// Each event as what it was, where, and what caused it: numbering aside.
        func described(_ events: [[Any]], _ subscriptions: [[String: Any]]) -> [String] {
            func what(_ event: [Any]) -> String {
                "\(event[1]) \(event[3]) on \((event[0] as? Int).flatMap { subscriptions[$0]["title"] as? String } ?? "?")"
            }
            return events.map { event in
                what(event) + " caused by " + ((event[4] as? Int).map { what(events[$0]) } ?? "nothing") + " (\(event[5]))"
            }.sorted()
        }
        #expect(described(page.events, page.subscriptions) == described(wholeEvents, wholeSubscriptions))
        #expect(page.events.allSatisfy { $0[5] as? String != "?" }, "every cause came, later or not")
        for (index, event) in page.events.enumerated() {
            let lane = try #require(event[0] as? Int)
            #expect(page.marks[lane]?.contains { $0[2] as? Int == index } == true, "the event is a mark on its subscription's lane")
        }
    }

    @Test("A graph message draws everything so far, with the findings on it, and maps each subscription to its graph node")
    func graphMessage() throws {
        let trace = searchScenario()
        let own = Self.ownPart(of: trace)
        let live = LiveReport(options: .init(title: "search"))
        _ = live.add(trace.records)
        #expect(live.graphIsStale)
        var rendered: String?
        let message = try Self.json(live.graphMessage(analysis: { $0.analyze() }) { dot in
            rendered = dot
            return try? String(decoding: GraphvizRenderer.render(dot, format: .svg), as: UTF8.self)
        })
        #expect(!live.graphIsStale && !live.findingsAreStale)
        let nodes = try #require(message["nodes"] as? [[String: Any]])
        let svg = try #require(message["svg"] as? String)
        #expect(svg.hasPrefix("<svg"), "the picture, ready to sit in the page")
        for node in nodes {
            let id = try #require(node["id"] as? String)
            #expect(svg.contains("id=\"\(id)\""), "the picture draws node \(id)")
        }
        #expect(rendered?.contains("query") == true)
        let findings = try #require(message["findings"] as? [[String: Any]])
        let ids = Set(nodes.compactMap { $0["id"] as? String })
        #expect(findings.contains { finding in
            finding["rule"] as? String == "leaked-subscription" && (finding["message"] as? String)?.contains("\"results\"") == true
                && (finding["nodes"] as? [String]).map { !$0.isEmpty && Set($0).isSubset(of: ids) } == true
        }, "the findings of the trace so far, on nodes of its graph")
        // Subscriptions are numbered in the order they came; the scenario's own are each in
        // the graph node of what they subscribed to.
        let numbers = Dictionary(uniqueKeysWithValues: trace.subscriptions.keys.sorted().enumerated().map { ($1, $0) })
        let mapped = Set(nodes.flatMap { $0["subscriptions"] as? [Int] ?? [] })
        #expect(!own.subscriptions.isEmpty && own.subscriptions.keys.allSatisfy { numbers[$0].map(mapped.contains) == true })
    }

    @Test("The page is the report's, its data live and empty, well-formed XML whatever the title")
    func page() throws {
        let hostile = "\"'</script><script>alert(1)</script> ]]> <!-- & \u{1B}[31m \u{202E}evil"
        let page = LiveReport(options: .init(title: hostile)).page()
        let document = try XMLDocument(data: Data(page.utf8))
        #expect(try document.nodes(forXPath: "//*[local-name()='script']").count == 2, "the data and the report's own script")
        let dataElement = try #require(try document.nodes(forXPath: "//*[local-name()='script'][@type='application/json']").first)
        let data = try Self.json(try #require(dataElement.stringValue))
        #expect(data["live"] as? Bool == true && data["title"] as? String == hostile)
        #expect((data["events"] as? [Any])?.isEmpty == true && (data["nodes"] as? [Any])?.isEmpty == true)
        #expect(page.contains("id=\"graph-view\"") && page.contains("id=\"lanes\""), "the report's graph and timeline panes")
    }
}
