import Foundation
import FoundationXML
import SignalScopeTools
import Testing

/// What this file created, out of a whole-process recording.
private func ownPart(of trace: Trace) -> Trace {
    trace.restricted { $0.file == "SignalScopeRenderingTests/TimelineAndExportTests.swift" }
}

/// A map over a subject: two values, then an error; and a never-ending subscription.
private func scenario() -> Trace {
    ownPart(of: Tracer.record(values: true) {
        let source = Subject<Int>().named("source")
        source.map { $0 * 10 }.subscribe(next: { _ in }, error: { _ in })
        Subject<String>().named("endless").subscribeNext { _ in }
        source.sendNext(1)
        source.sendNext(2)
        source.sendError(NSError(domain: "Network", code: 1))
    })
}

private func svg(_ text: String) throws -> XMLDocument {
    try XMLDocument(data: Data(text.utf8))
}

private func count(_ className: String, in document: XMLDocument) throws -> Int {
    try document.nodes(forXPath: "//*[@class='\(className)']").count
}

@Suite("Marble timelines and Chrome traces", .timeLimit(.minutes(10)))
struct TimelineAndExportTests {
    @Test("One lane per subscription in tree order, with values, the error, and an open end")
    func marbles() throws {
        let trace = scenario()
        let timeline = MarbleTimeline(trace: trace)
        let document = try svg(timeline.svg())
        #expect(try count("lane", in: document) == 3, "map's, its upstream subject's, and the endless one")
        #expect(try count("next", in: document) == 4, "two values on map's lane, two on the subject's")
        #expect(try count("error", in: document) == 2)
        #expect(try count("open", in: document) == 1, "the endless lane never ends")
        let text = try document.nodes(forXPath: "//*[local-name()='text']").compactMap(\.stringValue)
        #expect(text.contains("10"), "value summaries are shown")
        let tooltips = try document.nodes(forXPath: "//*[@class='next']/*[local-name()='title']").compactMap(\.stringValue)
        #expect(tooltips.contains { $0.hasPrefix("20 · ") }, "every value is in its marble's tooltip, with its time")
        let labels = text.filter { $0.contains("·") && !$0.hasPrefix("signal timeline") }
        #expect(labels.first?.hasPrefix("map") == true, "the subscriber's lane comes first, then what it subscribed to: \(labels)")
        #expect(labels.dropFirst().first?.hasPrefix("subject \"source\"") == true)
    }

    @Test("Lanes per node merge a node's subscriptions; a node filter keeps only its lanes")
    func nodesAndFilter() throws {
        let trace = scenario()
        let byNode = try svg(MarbleTimeline(trace: trace, options: .init(lanes: .nodes)).svg())
        #expect(try count("lane", in: byNode) == 3)
        let filtered = try svg(MarbleTimeline(trace: trace, options: .init(node: "endless")).svg())
        #expect(try count("lane", in: filtered) == 1)
    }

    @Test("A lane named by a finding is highlighted")
    func highlightedLane() throws {
        let trace = ownPart(of: Tracer.record {
            let bus = Subject<Int>()
            bus.subscribeNext { _ in }
            withExtendedLifetime(bus) {}
        })
        let report = trace.analyze()
        let document = try svg(MarbleTimeline(trace: trace, report: report).svg())
        #expect(report.findings.map(\.rule) == [.neverCompletedSubject])
        #expect(try count("highlight", in: document) == 1)
    }

    @Test("A lane with more values than fit is drawn as a density strip")
    func density() throws {
        let trace = ownPart(of: Tracer.record {
            let busy = Subject<Int>()
            busy.subscribeNext { _ in }
            for value in 0..<5_000 { busy.sendNext(value) }
            busy.sendCompleted()
        })
        let document = try svg(MarbleTimeline(trace: trace).svg())
        #expect(try count("density", in: document) == 1)
        #expect(try count("next", in: document) == 0)
    }

    @Test("Hostile value summaries stay text in the SVG")
    func hostileValues() throws {
        let trace = ownPart(of: Tracer.record(values: true) {
            Signal.just("</text><script>alert(1)</script>").subscribe()
        })
        let document = try svg(MarbleTimeline(trace: trace).svg())
        #expect(try document.nodes(forXPath: "//*[local-name()='script']").isEmpty)
    }

    @Test("The Chrome trace is valid Trace Event JSON: thread tracks, subscription slices, events with values, a flow for every recorded cause")
    func chromeTrace() throws {
        let trace = scenario()
        var exporter = ChromeTraceExporter()
        let data = exporter.export(trace)
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let events = try #require(root["traceEvents"] as? [[String: Any]])
        for event in events {
            #expect(event["ph"] is String && event["pid"] is Int && event["name"] is String, "\(event)")
            if event["ph"] as? String != "M" { #expect(event["ts"] is Double, "\(event)") }
        }
        let phases = events.compactMap { $0["ph"] as? String }
        #expect(phases.filter { $0 == "M" }.count == 2, "the process name and one track per thread (the scenario ran on one)")
        #expect(phases.filter { $0 == "b" }.count == 3 && phases.filter { $0 == "e" }.count == 3, "one async slice per subscription")
        let nexts = events.filter { ($0["name"] as? String)?.hasPrefix("next · ") == true }
        let values = nexts.compactMap { ($0["args"] as? [String: Any])?["value"] as? String }
        #expect(values.sorted() == ["1", "10", "2", "20"])
        // Each event the subject sent caused map's (two values and the error), and the error
        // the disposals it caused: every recorded cause is one arrow.
        let sequences = Set(trace.records.map(\.sequence))
        let causes = trace.records.count { $0.cause.map { sequences.contains($0.sequence) } ?? false }
        #expect(causes > 3 && phases.filter { $0 == "s" }.count == causes && phases.filter { $0 == "f" }.count == causes, "\(causes) causes")
        #expect(events.filter { $0["ph"] as? String == "X" }.allSatisfy { $0["dur"] as? Int == 0 && $0["tid"] as? Int == 1 })
    }
}

/// Timelines on a test's virtual time, and identical lanes collapsed.
@Suite("Timelines at scale and on virtual time", .timeLimit(.minutes(10)))
struct TimelineScaleTests {
    /// A search field throttled by 0.3 s on a `TestScheduler`: typing at 0, 0.1 and 0.5 s.
    private func throttledSearch() -> Trace {
        ownPart(of: Tracer.record(values: true) {
            let scheduler = TestScheduler()
            let query = Subject<String>().named("query")
            query.throttle(0.3, on: scheduler).subscribeNext { _ in }
            query.sendNext("s")
            scheduler.advance(by: 0.1)
            query.sendNext("sw")
            scheduler.advance(by: 0.4)
            query.sendNext("swi")
            scheduler.advance(by: 1)
        })
    }

    @Test("Under a TestScheduler the timeline runs on virtual time: throttle's 0.3 s pause shows as 0.3 s")
    func virtualTime() throws {
        let trace = throttledSearch()
        #expect(trace.usesVirtualTime)
        let model = TimelineModel(trace: trace)
        let throttled = try #require(model.lanes.first { $0.title.hasPrefix("throttle") })
        let times = throttled.marks.filter { $0.kind == .next }.map(\.time)
        #expect(times == [400_000_000, 800_000_000], "each value 0.3 s after the last one typed (RAC 2's throttle waits for a pause)")
        #expect(model.duration == 800_000_000)
    }

    @Test("The timeline of a TestScheduler run matches its golden file")
    func goldenVirtualTimeline() throws {
        try expectGolden(MarbleTimeline(trace: throttledSearch()).svg(), "throttled-search-timeline", extension: "svg")
    }

    @Test("Identical lanes collapse into one with a count; the SVG has an axis and a legend")
    func collapsedLanes() throws {
        let trace = ownPart(of: Tracer.record(values: true) {
            let rows = Subject<Int>().named("rows")
            for _ in 0..<50 { rows.map { $0 + 1 }.take(1).subscribeNext { _ in } }
            rows.sendNext(1)
        })
        let model = TimelineModel(trace: trace)
        #expect(model.lanes.count == 3, "the take lanes, the map lanes, the subject lanes: \(model.lanes.map(\.title))")
        #expect(model.lanes.allSatisfy { $0.count == 50 && $0.subscriptions.count == 50 })
        let uncollapsed = TimelineModel(trace: trace, options: .init(collapse: false))
        #expect(uncollapsed.lanes.count == 150)
        let document = try svg(MarbleTimeline(trace: trace).svg())
        #expect(try count("lane", in: document) == 3)
        #expect(try count("legend", in: document) == 1 && count("axis", in: document) == 1)
        let text = try document.nodes(forXPath: "//*[local-name()='text']").compactMap(\.stringValue)
        #expect(text.contains { $0.contains("×50 ") }, "the count before the lane's title")
    }
}

/// A record kind that brings its own payload exports its fields without the exporter
/// knowing it.
@Suite("Exporting a record kind the exporter does not know", .timeLimit(.minutes(10)))
struct ExtendedEventExportTests {
    struct Retried: TraceEventPayload {
        let attempt: Int
        var name: String { "retried" }
        var exportedFields: [(key: String, value: String)] { [("attempt", "\(attempt)")] }
    }

    @Test func jsonLinesWritesItsNameAndFields() {
        var exporter = JSONLinesExporter()
        var output = JSONBuffer()
        exporter.add(TraceRecord(sequence: 4, timestamp: 9, thread: 1, event: .extended(ExtendedEvent(Retried(attempt: 2)))), into: &output)
        #expect(String(decoding: output.bytes, as: UTF8.self) == "{\"seq\":4,\"ts\":9,\"thread\":1,\"event\":\"retried\",\"attempt\":\"2\"}\n")
    }

    @Test("A record a creation block wrote says so, after its cause")
    func jsonLinesMarksCreationBlockWork() {
        var exporter = JSONLinesExporter()
        var output = JSONBuffer()
        let cause = TraceCause(sequence: 3, kind: .scheduled)
        exporter.add(TraceRecord(sequence: 5, timestamp: 9, thread: 1, event: .completed(SubscriptionID(rawValue: 2)), cause: cause, inCreationBlock: true), into: &output)
        exporter.add(TraceRecord(sequence: 6, timestamp: 9, thread: 1, event: .completed(SubscriptionID(rawValue: 3))), into: &output)
        let lines = String(decoding: output.bytes, as: UTF8.self).split(separator: "\n")
        #expect(lines.first?.hasSuffix(#""cause":3,"causeKind":"scheduled","creationBlock":true}"#) == true, "\(lines)")
        #expect(lines.last?.contains("creationBlock") == false)
    }
}
