import Foundation
import SignalScopeTools

/// Makes the HTML report of a trace, for `report` and for `check --format html`.
enum ReportPageMaking {
    /// The page of `trace` (read with `.everything`) and its `analysis`, titled `title`; the
    /// findings whose fingerprints `baseline` holds are marked as the baseline's.
    static func page(
        trace: Trace, analysis: AnalysisReport, title: String, editor: EditorURLOption?, baseline: Set<String> = []
    ) -> String {
        let sources = SourceResolver()
        let links = try? SourceLinks(editorTemplate: editor?.template, sources: sources)
        // The picture `graph` draws by default: collapsed, at most 2,000 boxes, findings first.
        let graph = SignalGraph(trace: trace, report: analysis)
        var svg: String?
        do {
            let dot = DOTWriter.dot(graph, links: editor?.template == nil ? nil : links)
            svg = String(decoding: try GraphvizRenderer.render(dot, format: .svg), as: UTF8.self)
        } catch {
            standardError("signalscope: warning: the report has no graph picture: \(error.description)")
        }
        var options = HTMLReport.Options(title: title, links: links, sources: sources)
        options.baseline = baseline
        return HTMLReport(trace: trace, analysis: analysis, graph: graph, graphSVG: svg, options: options).html()
    }
}
