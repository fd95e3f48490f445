import ArgumentParser
import Foundation
import SignalScopeTools

/// `signalscope graph`: draws a trace's signal graph, with findings highlighted.
struct Graph: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draw a trace's signal graph as SVG, PNG, PDF or DOT (chosen by the output's extension).")

    @Argument(help: "The trace to draw.")
    var trace: String

    @Option(name: .shortAndLong, help: "The output file: .svg, .png, .pdf or .dot.")
    var output: String

    @Option(help: "Draw only the neighbourhood of nodes whose name or id contains this text.")
    var focus: String?

    @Option(help: "How many edges away from the focus to draw.")
    var depth = 2

    @Option(help: "The layout engine: dot or sfdp (for large graphs).")
    var engine = "dot"

    @Flag(help: "Draw every node, rather than merging nodes made at the same site.")
    var noCollapse = false

    func run() throws {
        let ext = URL(fileURLWithPath: output).pathExtension.lowercased()
        guard let format = GraphFormat(rawValue: ext) else {
            throw CLIError("cannot tell the format of \(output): use .svg, .png, .pdf or .dot")
        }
        guard let layout = LayoutEngine(rawValue: engine) else {
            throw CLIError("unknown --engine '\(engine)' (expected dot or sfdp)")
        }
        guard depth >= 0 else { throw CLIError("--depth must be 0 or more, not \(depth)") }
        let loaded = try TraceLoading.load(trace)
        let graph = SignalGraph(
            trace: loaded, report: loaded.analyze(),
            options: .init(collapse: !noCollapse, focus: focus, depth: depth))
        if let focus, graph.nodes.isEmpty {
            throw CLIError("no node matches --focus '\(focus)'")
        }
        let dot = DOTWriter.dot(graph)
        let data: Data
        do {
            data = format == .dot ? Data(dot.utf8) : try GraphvizRenderer.render(dot, format: format, engine: layout)
        } catch {
            throw CLIError(error.description)
        }
        try writeOutput(data, to: output)
        print("wrote \(TerminalText.sanitized(output)) (\(graph.nodes.count) nodes, \(graph.edges.count) edges)")
    }
}
