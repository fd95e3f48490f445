import ArgumentParser
import Foundation
import SignalScope

/// `signalscope export`: converts a trace for other tools.
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Export a trace as Chrome/Perfetto trace JSON (open it in ui.perfetto.dev).")

    @Argument(help: "The trace to export.")
    var trace: String

    @Option(name: .customLong("chrome-trace"), help: "Where to write the Chrome trace JSON.")
    var chromeTrace: String

    func run() throws {
        let loaded = try TraceLoading.load(trace)
        let data: Data
        do {
            data = try ChromeTraceExporter.json(loaded)
        } catch {
            throw CLIError("cannot export \(trace): \(error)")
        }
        try writeOutput(data, to: chromeTrace)
        print("wrote \(chromeTrace)")
    }
}
