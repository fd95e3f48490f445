import ArgumentParser
import Foundation
import SignalScopeTools

/// `signalscope export`: converts a trace for other tools.
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Export a trace in Perfetto's format or as Chrome trace JSON (open either in ui.perfetto.dev), or as JSON Lines.")

    @Argument(help: "The trace to export.")
    var trace: String

    @Option(name: .customLong("perfetto"), help: "Where to write the trace in Perfetto's protobuf format, with the analysis's findings on its tracks.")
    var perfetto: String?

    @Option(name: .customLong("chrome-trace"), help: "Where to write the Chrome trace JSON.")
    var chromeTrace: String?

    @Option(name: .customLong("jsonl"), help: "Where to write one JSON object per record.")
    var jsonLines: String?

    @OptionGroup var force: ForceOption

    func run() throws {
        guard perfetto != nil || chromeTrace != nil || jsonLines != nil else {
            throw CLIError("say what to export: --perfetto <file>, --chrome-trace <file>, --jsonl <file>, or several")
        }
        // Reads what is alive first, for the warnings every command gives (a damaged tail,
        // an incomplete snapshot) and the findings the Perfetto export shows; the exports
        // then stream the records.
        let input = try TraceInput(trace)
        let loaded = try TraceLoading.load(input, detail: .liveEntities)
        let outputs: [(path: String?, exporter: () -> any TraceExporter)] = [
            (perfetto, { PerfettoExporter(findings: loaded.analyze().findings) }),
            (chromeTrace, { ChromeTraceExporter() }), (jsonLines, { JSONLinesExporter() }),
        ]
        for case (let path?, let make) in outputs {
            var exporter = make()
            try export(input, with: &exporter, to: path)
            announceWritten(path)
        }
    }

    /// Streams the export: records go from the log to the file as they are read, with a
    /// progress bar on a terminal, so memory stays flat whatever the trace's size.
    private func export(_ input: TraceInput, with exporter: inout some TraceExporter, to path: String) throws {
        let output = try StreamedOutput(path, force: force.isOn)
        let status = TerminalStatus()
        defer { status.clear() }
        do {
            _ = try exporter.export(records: { body throws(TraceReadError) in
                try input.forEachRecord(progress: { fraction in
                    status.showProgress("exporting \(TerminalText.sanitized(trace))", fraction: fraction)
                }, body)
            }, write: { bytes in
                try output.write(bytes)
            })
            try output.commit()
        } catch let error as CLIError {
            throw error
        } catch let error as TraceReadError {
            throw CLIError(error.description)
        } catch {
            throw CLIError("cannot export \(trace): \(error)")
        }
    }
}
