import ArgumentParser
import Foundation
import SignalScopeTools

/// `signalscope timeline`: draws a trace as marble diagrams in SVG.
struct Timeline: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Draw a trace's marble timeline as SVG.")

    @Argument(help: "The trace to draw.")
    var trace: String

    @Option(name: .shortAndLong, help: "The SVG file to write, or - for standard output.")
    var output: String

    @Option(help: "One lane per subscription, or per node.")
    var lanes: TimelineModel.Lanes = .subscriptions

    @Option(help: "Only the lanes of nodes whose name or site contains this text.")
    var node: String?

    @OptionGroup var force: ForceOption

    func run() throws {
        let loaded = try TraceLoading.load(trace)
        let timeline = MarbleTimeline(
            trace: loaded, report: loaded.analyze(), options: .init(lanes: lanes, node: node))
        try writeOutput(Data(timeline.svg().utf8), to: output, force: force.isOn)
        announceWritten(output)
    }
}
