import Foundation
import SignalScopeAnalysis
import SignalScope
import SignalScopeTracing

/// One self-contained HTML page about a trace: its findings with their proof, the signal
/// graph (pan, zoom, search, a panel per node with who holds it), the timeline (zoom, values
/// on hover, identical lanes collapsed) and, for any event, the chain of events that caused
/// it back to user code.
///
/// The page needs no network: its style, script and data are inline. The data is one JSON
/// document in a `<script type="application/json">` element (``data()``), escaped so that
/// no name, value or path from the trace can end the element or start markup; the page is
/// also well-formed XML. The graph is the SVG Graphviz drew from ``DOTWriter``, whose
/// element ids (`n1`, `e1`) the data refers to.
public struct HTMLReport {
    /// What the page shows besides the trace.
    public struct Options {
        /// The page's title: the trace's name, say.
        public var title: String
        /// How sites link to their source lines (to a file the project holds, in an editor
        /// or by its path relative to the project); without it, sites are text.
        public var links: SourceLinks?
        /// Finds the files sites name (`Module/File.swift`) in the project.
        public var sources: SourceResolver?
        /// The fingerprints of the findings a baseline accepts: the page marks them, as every
        /// other report of `check` does.
        public var baseline: Set<String> = []
        /// What the page says where the graph picture would be, when it has none (by default:
        /// that Graphviz could not draw it).
        public var graphNote: String?

        /// Options for a page titled `title`.
        public init(title: String, links: SourceLinks? = nil, sources: SourceResolver? = nil) {
            self.title = title
            self.links = links
            self.sources = sources
        }
    }

    private let content: ReportData
    private let graphSVG: String?
    private let title: String

    /// Prepares the page of `trace` (read with `.everything`), its `analysis`, and `graph`
    /// with `graphSVG`, the SVG Graphviz made of `DOTWriter.dot(graph)` (`nil`: no picture,
    /// when Graphviz could not draw it; the page says so).
    public init(trace: Trace, analysis: AnalysisReport, graph: SignalGraph, graphSVG: String?, options: Options) {
        content = ReportData(trace: trace, analysis: analysis, graph: graph, options: options)
        self.graphSVG = graphSVG
        title = options.title
    }

    /// The data section: the JSON the page draws from (findings, graph, lanes, events).
    public func data() -> String { content.json }

    /// The whole page.
    public func html() -> String {
        Self.page(title: title, data: content.json, graphSVG: graphSVG.map(Self.inlineSVG))
    }

    /// The page around `data` (the report's data as JSON) and `graphSVG` (an inline `<svg>`).
    static func page(title: String, data: String, graphSVG: String?) -> String {
        var page = ReportPage.head(title: XMLText.escaped(title))
        page += "<script type=\"application/json\" id=\"signalscope-data\">\(data)</script>\n"
        page += "<div id=\"graph-svg\" hidden=\"hidden\">\(graphSVG ?? "")</div>\n"
        page += ReportPage.body
        return page
    }

    /// Graphviz's SVG without its XML declaration and doctype, to sit inside the page.
    static func inlineSVG(_ svg: String) -> String {
        guard let start = svg.range(of: "<svg") else { return "" }
        return String(svg[start.lowerBound...])
    }
}
