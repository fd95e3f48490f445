import Foundation
import FoundationXML
import SignalScopeTools
import Testing

/// Scenarios record the whole process, so every graph here is restricted to what this file
/// created.
private func ownPart(of trace: Trace) -> Trace {
    trace.restricted { $0.file == "SignalScopeRenderingTests/RenderingTests.swift" }
}

/// The search hints screen: typing maps to requests, switchToLatest keeps the latest.
private func searchHints() -> Trace {
    ownPart(of: Tracer.record {
        let text = Subject<String>().named("search text")
        let hints = text.map { query in Signal.just(["\(query)1", "\(query)2"]) }.switchToLatest()
        let shown = hints.subscribeNext { _ in }
        text.sendNext("s")
        text.sendNext("sw")
        shown.dispose()
        text.sendCompleted()
    })
}

private final class Listener {
    var count = 0
}

/// A subject never completed, with a subscriber capturing an object: a finding to highlight.
private func neverCompleted() -> (Trace, AnalysisReport) {
    let trace = ownPart(of: Tracer.record {
        let updates = Subject<Int>()
        let listener = Listener()
        updates.subscribeNext { _ in listener.count += 1 }
    })
    return (trace, trace.analyze())
}

/// A screen whose observer captures it strongly: it and its subscription keep each other.
private final class CapturingScreen {
    let title = MutableProperty("")
    var shown = ""
    func bind() { title.signal.subscribeNext { self.shown = $0 } }
}

private func selfCaptured() -> (Trace, AnalysisReport) {
    weak var freed: CapturingScreen?
    let trace = ownPart(of: Tracer.record {
        let screen = CapturingScreen()
        freed = screen
        screen.bind()
    })
    precondition(freed != nil, "the screen is kept alive by its own observer")
    return (trace, trace.analyze())
}

private func svgDocument(_ graph: SignalGraph) throws -> XMLDocument {
    let svg = try GraphvizRenderer.render(DOTWriter.dot(graph), format: .svg)
    return try XMLDocument(data: svg)
}

private func elements(named name: String, in document: XMLDocument) throws -> [XMLNode] {
    try document.nodes(forXPath: "//*[local-name()='\(name)']")
}

@Suite("Rendering signal graphs", .timeLimit(.minutes(10)))
struct RenderingTests {
    /// Compares with `Golden/<name>.dot`; `SIGNALSCOPE_RECORD_GOLDEN=1` records it anew.
    @Test("The DOT of the search hints scenario matches its golden file")
    func goldenSearchHints() throws {
        try expectGolden(DOTWriter.dot(SignalGraph(trace: searchHints())), "search-hints")
    }

    @Test("The DOT of a never-completed subject, highlighted, matches its golden file")
    func goldenNeverCompleted() throws {
        let (trace, report) = neverCompleted()
        try expectGolden(DOTWriter.dot(SignalGraph(trace: trace, report: report)), "never-completed-subject")
    }

    @Test("The graph has the scenario's nodes and edges, with data and control edges apart")
    func graphModel() throws {
        let graph = SignalGraph(trace: searchHints())
        let titles = graph.nodes.map(\.title)
        #expect(titles.contains("subject \"search text\""))
        #expect(titles.contains("map"))
        #expect(titles.contains("switchToLatest"))
        #expect(titles.contains("subscriber"))
        let switchNode = try #require(graph.nodes.first { $0.title == "switchToLatest" })
        #expect(graph.edges.contains { $0.to == switchNode.id && $0.style == .control }, "the outer signal only switches")
        #expect(graph.edges.contains { $0.to == switchNode.id && $0.style == .data }, "inner signals carry the values")
        #expect(graph.nodes.first { $0.title == "subscriber" }?.state == .disposed)
    }

    @Test("SVG rendered in process parses as XML, with one shape per node and the labels")
    func svg() throws {
        let graph = SignalGraph(trace: searchHints())
        let document = try svgDocument(graph)
        #expect(try drawnNodes(document).count == graph.nodes.count)
        let text = try elements(named: "text", in: document).compactMap(\.stringValue).joined(separator: " ")
        #expect(text.contains("switchToLatest"))
        #expect(text.contains("\"search text\""))
        #expect(text.contains("RenderingTests.swift"))
    }

    /// The drawn nodes of the graph itself, without the legend's.
    private func drawnNodes(_ document: XMLDocument) throws -> [XMLNode] {
        try document.nodes(forXPath: "//*[local-name()='g'][@class='node'][not(starts-with(*[local-name()='title'], 'legend_'))]")
    }

    @Test("Nodes and edges on a finding's path are highlighted, with the rule id")
    func highlighting() throws {
        let (trace, report) = neverCompleted()
        #expect(report.findings.map(\.rule) == [.neverCompletedSubject])
        let graph = SignalGraph(trace: trace, report: report)
        #expect(graph.nodes.filter { $0.rule == .neverCompletedSubject }.count >= 2)
        #expect(graph.edges.contains { $0.isHighlighted })
        let document = try svgDocument(graph)
        let text = try elements(named: "text", in: document).compactMap(\.stringValue).joined(separator: " ")
        #expect(text.contains("[never-completed-subject]"))
        let highlighted = try document.nodes(forXPath: "//*[@stroke='#d00000']")
        #expect(!highlighted.isEmpty)
        #expect(graph.nodes.contains { $0.kind == .object && $0.title == "Listener" }, "the captured object is drawn")
    }

    @Test("A finding's suspect step is drawn: its two ends outlined twice, the reference between them labelled cut")
    func suspectStep() throws {
        let (trace, report) = selfCaptured()
        let finding = try #require(report.findings.first { $0.rule == .selfCapturedObserver })
        let suspect = try #require(finding.steps.first { $0.mark == .suspect })
        let graph = SignalGraph(trace: trace, report: report)
        let suspectEdges = graph.edges.filter(\.isSuspect)
        #expect(suspectEdges.count == 1)
        let ends = Set(graph.nodes.filter(\.isSuspect).map(\.id))
        #expect(ends.count == 2 && suspectEdges.allSatisfy { ends.contains($0.from) && ends.contains($0.to) })
        #expect(graph.nodes.contains { $0.isSuspect && $0.kind == .object && $0.title == "CapturingScreen" }, "\(suspect)")
        let document = try svgDocument(graph)
        let text = try elements(named: "text", in: document).compactMap(\.stringValue)
        #expect(text.filter { $0 == "cut" }.count == 1)
    }

    @Test("Hostile names cannot break the DOT or put live markup into the SVG")
    func hostileLabels() throws {
        let hostile = "\"];\n digraph x { <script>alert(1)</script> ]]> \\ & \u{0007} \u{1B}[31m \u{202E}evil ünïcode ✓ 🚀"
        let trace = ownPart(of: Tracer.record {
            let subject = Subject<Int>().named(hostile)
            subject.map { $0 }.named("</text><script>evil()</script>").subscribe()
            subject.sendCompleted()
        })
        let graph = SignalGraph(trace: trace)
        let dot = DOTWriter.dot(graph)
        #expect(!dot.contains("<script>"))
        let svg = try GraphvizRenderer.render(dot, format: .svg)
        let document = try XMLDocument(data: svg)
        #expect(try elements(named: "script", in: document).isEmpty)
        #expect(try drawnNodes(document).count == graph.nodes.count, "no node was injected")
        let text = try elements(named: "text", in: document).compactMap(\.stringValue).joined(separator: " ")
        #expect(text.contains("<script>alert(1)</script> ]]>"), "shown as text")
        #expect(text.contains("ünïcode ✓ 🚀"), "UTF-8 passes through, beyond the Basic Multilingual Plane too")
        #expect(text.contains("\\u{1B}[31m \\u{202E}evil"), "escape sequences and direction overrides show as escapes")
    }

    @Test("PNG and PDF are rendered where Graphviz has their renderers")
    func otherFormats() throws {
        let dot = DOTWriter.dot(SignalGraph(trace: searchHints()))
        let png = try GraphvizRenderer.render(dot, format: .png)
        #expect(png.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
        let pdf = try GraphvizRenderer.render(dot, format: .pdf)
        #expect(pdf.prefix(4) == Data("%PDF".utf8))
        #expect(try GraphvizRenderer.render(dot, format: .svg, engine: .sfdp).count > 0)
    }

    @Test("A graph Graphviz rejects is an error carrying Graphviz's message")
    func graphvizErrors() {
        do {
            _ = try GraphvizRenderer.render("digraph { a -> ; }", format: .svg)
            Issue.record("Graphviz accepted a broken graph")
        } catch {
            guard case .invalidGraph(let message) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(message.contains("syntax error"), "\(message)")
        }
    }

    @Test("Fifty thousand identical subscriptions collapse into one node with a count, under the cap")
    func collapseAtScale() throws {
        let cells = 50_000
        let trace = ownPart(of: Tracer.record {
            let taps = Subject<Void>()
            for _ in 0..<cells { taps.subscribeNext { _ in } }
            taps.sendCompleted()
        })
        let graph = SignalGraph(trace: trace)
        #expect(graph.nodes.count < 10)
        #expect(graph.nodes.first { $0.kind == .subscriber }?.count == cells)
        let uncollapsed = SignalGraph(trace: trace, options: SignalGraph.Options(collapse: false, maximumNodes: 2_000))
        #expect(uncollapsed.nodes.count == 2_000)
        #expect(uncollapsed.hiddenNodeCount == cells + 1 - 2_000)
        let start = Date()
        let svg = try GraphvizRenderer.render(DOTWriter.dot(graph), format: .svg)
        print("collapsed 50,000-subscription graph: \(graph.nodes.count) nodes, rendered in \(String(format: "%.2f", Date().timeIntervalSince(start))) s")
        #expect(!svg.isEmpty)
    }

    @Test("Focusing draws only a node's neighbourhood")
    func focus() {
        let trace = searchHints()
        let focused = SignalGraph(trace: trace, options: SignalGraph.Options(focus: "search text", depth: 1))
        #expect(focused.nodes.map(\.title).sorted() == ["map", "subject \"search text\""])
        #expect(focused.hiddenNodeCount > 0)
    }

    @Test("One id space: a node's id is its place in the whole graph, in DOT and for --focus, and a focused graph keeps it")
    func oneIDSpace() throws {
        let trace = searchHints()
        let whole = SignalGraph(trace: trace)
        #expect(whole.nodes.map(\.id) == whole.nodes.indices.map { "n\($0 + 1)" })
        let subject = try #require(whole.nodes.first { $0.title == "subject \"search text\"" })
        #expect(DOTWriter.dot(whole).contains("\"\(subject.id)\" ["))
        let focused = SignalGraph(trace: trace, options: SignalGraph.Options(focus: subject.id, depth: 1))
        #expect(focused.nodes.map(\.title).sorted() == ["map", "subject \"search text\""])
        let kept = try #require(focused.nodes.first { $0.title == subject.title })
        #expect(kept.id == subject.id, "the focused picture keeps the whole graph's id")
        #expect(DOTWriter.dot(focused).contains("\"\(subject.id)\" ["))
    }
}
