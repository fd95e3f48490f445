import Foundation
import SignalScopeTools

/// Makes the HTML report of a trace, for `report` and for `check --format html`.
enum ReportPageMaking {
    /// The page of `trace` (read with `.everything`) and its `analysis`, titled `title`.
    static func page(trace: Trace, analysis: AnalysisReport, title: String, editor: EditorURLOption?) -> String {
        // The picture `graph` draws by default: collapsed, at most 2,000 boxes, findings first.
        let graph = SignalGraph(trace: trace, report: analysis)
        var svg: String?
        do {
            let dot = DOTWriter.dot(graph, links: editor?.links)
            svg = String(decoding: try GraphvizRenderer.render(dot, format: .svg), as: UTF8.self)
        } catch {
            standardError("signalscope: warning: the report has no graph picture: \(error.description)")
        }
        let options = HTMLReport.Options(title: title, editorURL: editor?.template, sources: SourceResolver())
        return HTMLReport(trace: trace, analysis: analysis, graph: graph, graphSVG: svg, options: options).html()
    }
}
