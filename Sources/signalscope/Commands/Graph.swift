import ArgumentParser
import Foundation
import SignalScopeTools

/// `signalscope graph`: draws a trace's signal graph, with findings highlighted.
struct Graph: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draw a trace's signal graph as SVG, PNG, PDF or DOT (chosen by the output's extension).")

    @Argument(help: "The trace to draw.")
    var trace: String

    @Option(name: .shortAndLong, help: "The output file: .svg, .png, .pdf or .dot, or - for standard output.")
    var output: String

    @Option(help: "The output format, when the file's extension does not say it (svg for -).")
    var format: GraphFormat?

    @Option(help: "Draw only the neighbourhood of nodes whose name contains this text, or whose id (n12, as the full graph shows it) is this text.")
    var focus: String?

    @Option(help: "How many edges away from the focus to draw.")
    var depth = 2

    @Option(help: "The layout engine: dot, or sfdp for large graphs.")
    var engine: LayoutEngine = .dot

    @Flag(help: "Draw every node, rather than merging nodes made at the same site.")
    var noCollapse = false

    @OptionGroup var editor: EditorURLOption

    @OptionGroup var force: ForceOption

    func run() throws {
        let ext = URL(fileURLWithPath: output).pathExtension.lowercased()
        guard let format = format ?? GraphFormat(rawValue: ext) ?? (output == "-" ? .svg : nil) else {
            throw CLIError("cannot tell the format of \(output): use .svg, .png, .pdf or .dot, or --format")
        }
        guard depth >= 0 else { throw CLIError("--depth must be 0 or more, not \(depth)") }
        let loaded = try TraceLoading.load(trace)
        let graph = SignalGraph(
            trace: loaded, report: loaded.analyze(),
            options: .init(collapse: !noCollapse, focus: focus, depth: depth))
        if let focus, graph.nodes.isEmpty {
            throw CLIError("no node matches --focus '\(focus)'")
        }
        let dot = DOTWriter.dot(graph, links: editor.links)
        let data: Data
        do {
            data = format == .dot ? Data(dot.utf8) : try GraphvizRenderer.render(dot, format: format, engine: engine)
        } catch {
            throw CLIError(error.description)
        }
        try writeOutput(data, to: output, force: force.isOn)
        announceWritten(output, "\(graph.nodes.count) nodes, \(graph.edges.count) edges")
    }
}
