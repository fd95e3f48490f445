import ArgumentParser
import Foundation
import SignalScopeTools

/// `signalscope report`: one self-contained HTML page about a trace.
struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write an interactive HTML report of a trace: findings, graph, timeline and what caused each event.",
        discussion: """
            The page needs no network access: open it from a CI artifact. Select a finding to \
            see its path in the graph and its events in the timeline; click any event to see \
            the chain of events that caused it, back to your code.
            """)

    @Argument(help: "The trace to report on.")
    var trace: String

    @Option(name: .shortAndLong, help: "The HTML file to write, or - for standard output.")
    var output: String

    @Option(help: "The page's title (default: the trace's file name).")
    var title: String?

    @OptionGroup var editor: EditorURLOption

    @OptionGroup var force: ForceOption

    func run() throws {
        let loaded = try TraceLoading.load(trace)
        let analysis = loaded.analyze()
        let page = ReportPageMaking.page(
            trace: loaded, analysis: analysis, title: title ?? (trace as NSString).lastPathComponent, editor: editor)
        try writeOutput(Data(page.utf8), to: output, force: force.isOn)
        announceWritten(output, "\(analysis.findings.count) findings")
    }
}
