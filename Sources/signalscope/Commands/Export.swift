import ArgumentParser
import Foundation
import SignalScopeTools

/// `signalscope export`: converts a trace for other tools.
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Export a trace as Chrome/Perfetto trace JSON (open it in ui.perfetto.dev) or JSON Lines.")

    @Argument(help: "The trace to export.")
    var trace: String

    @Option(name: .customLong("chrome-trace"), help: "Where to write the Chrome trace JSON.")
    var chromeTrace: String?

    @Option(name: .customLong("jsonl"), help: "Where to write one JSON object per record.")
    var jsonLines: String?

    func run() throws {
        guard chromeTrace != nil || jsonLines != nil else {
            throw CLIError("say what to export: --chrome-trace <file>, --jsonl <file>, or both")
        }
        let loaded = try TraceLoading.load(trace)
        let outputs: [(path: String?, export: (Trace) throws -> Data)] = [
            (chromeTrace, ChromeTraceExporter.json), (jsonLines, JSONLinesExporter.jsonLines),
        ]
        for case let (path?, export) in outputs {
            let data: Data
            do {
                data = try export(loaded)
            } catch {
                throw CLIError("cannot export \(trace): \(error)")
            }
            try writeOutput(data, to: path)
            announceWritten(path)
        }
    }
}
