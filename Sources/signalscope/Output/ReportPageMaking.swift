import Foundation
import SignalScopeTools

/// Makes the HTML report of a trace, for `report`, `check --format html` and the live page.
enum ReportPageMaking {
    /// The page of `trace` (read with `.everything`) and its `analysis`, titled `title`; the
    /// findings whose fingerprints `baseline` holds are marked as the baseline's.
    static func page(
        trace: Trace, analysis: AnalysisReport, title: String, editor: EditorURLOption?, baseline: Set<String> = []
    ) -> String {
        let options = options(title: title, editor: editor, baseline: baseline)
        // The picture `graph` draws by default: collapsed, at most 2,000 boxes, findings first.
        let graph = SignalGraph(trace: trace, report: analysis)
        let svg = svg(of: DOTWriter.dot(graph, links: editor?.template == nil ? nil : options.links))
        return HTMLReport(trace: trace, analysis: analysis, graph: graph, graphSVG: svg, options: options).html()
    }

    /// The report's options: sites resolved to the project's files, and linked to them in
    /// `editor` when one is given.
    static func options(title: String, editor: EditorURLOption?, baseline: Set<String> = []) -> HTMLReport.Options {
        let sources = SourceResolver()
        let links = try? SourceLinks(editorTemplate: editor?.template, sources: sources)
        var options = HTMLReport.Options(title: title, links: links, sources: sources)
        options.baseline = baseline
        return options
    }

    /// The SVG Graphviz draws of `dot`, or `nil` (said on stderr) when it cannot.
    static func svg(of dot: String) -> String? {
        do {
            return String(decoding: try GraphvizRenderer.render(dot, format: .svg), as: UTF8.self)
        } catch {
            standardError("signalscope: warning: the report has no graph picture: \(error.description)")
            return nil
        }
    }
}
