import Foundation
import SignalScopeAnalysis
import SignalScopeRendering
import SignalScopeTracing

/// What a failing leak check keeps for whoever opens the CI run after the runner is gone,
/// when `SIGNALSCOPE_ARTIFACTS` names a folder: the test's trace (`<test>.sslog`, which
/// `signalscope report` opens) and its report page (`<test>.html`, without the graph
/// picture, which needs Graphviz: `signalscope report` draws it). Nothing is written when
/// the check passes, or when the variable is not set.
enum LeakEvidence {
    /// The folder evidence goes to, when one is set.
    static var folder: String? {
        ProcessInfo.processInfo.environment["SIGNALSCOPE_ARTIFACTS"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Keeps `trace`, read from `log`, and its report, named after `test`; returns the line
    /// that names the files for the failure, or why they could not be written.
    static func keep(trace: Trace, log: [UInt8], analysis: AnalysisReport, test: String) -> String? {
        guard let folder else { return nil }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let stem = ArtifactName.free(ArtifactName.safe(test), in: folder)
            let tracePath = "\(folder)/\(stem).sslog", pagePath = "\(folder)/\(stem).html"
            try Data(log).write(to: URL(fileURLWithPath: tracePath), options: .withoutOverwriting)
            var options = HTMLReport.Options(title: test)
            options.graphNote = "No graph picture: a leak check writes this page without Graphviz. signalscope report \(stem).sslog draws it."
            let page = HTMLReport(
                trace: trace, analysis: analysis, graph: SignalGraph(trace: trace, report: analysis), graphSVG: nil, options: options
            ).html()
            try Data(page.utf8).write(to: URL(fileURLWithPath: pagePath), options: .withoutOverwriting)
            return "signal leak evidence: \(pagePath), its trace \(tracePath)"
        } catch {
            return "signal leak evidence could not be kept in \(folder): \(error.localizedDescription)"
        }
    }
}
