import CFuzzDriver
import Foundation
import SignalScopeTools

/// Hands bytes to the event log reader and then to every consumer of a `Trace`: the
/// analysis, the graph and its DOT, both timelines, both exports, the report's data and page
/// (without Graphviz's picture), causal chains, and the restriction to one file. Nothing may crash, hang or fault on any input (`docs/fuzzing.md`).
enum FuzzTarget {
    static func run(_ bytes: Data) {
        for detail in [Trace.Detail.everything, .liveEntities] {
            guard let trace = try? Trace(data: bytes, path: "fuzz", detail: detail) else { continue }
            let report = trace.analyze()
            _ = trace.restricted { $0.file.hasPrefix("App/") }.analyze()
            guard detail == .everything else { continue }
            for options in [SignalGraph.Options(), SignalGraph.Options(collapse: false, focus: "a", depth: .max)] {
                _ = DOTWriter.dot(SignalGraph(trace: trace, report: report, options: options))
            }
            for lanes in [MarbleTimeline.Lanes.subscriptions, .nodes] {
                _ = MarbleTimeline(trace: trace, report: report, options: .init(lanes: lanes)).svg()
            }
            var chrome = ChromeTraceExporter()
            _ = chrome.export(trace)
            var perfetto = PerfettoExporter(findings: report.findings)
            _ = perfetto.export(trace)
            var lines = JSONLinesExporter()
            _ = lines.export(trace)
            _ = HTMLReport(
                trace: trace, analysis: report, graph: SignalGraph(trace: trace, report: report), graphSVG: nil,
                options: .init(title: "fuzz")
            ).html()
            for record in trace.records.suffix(16) { _ = trace.causes(of: record) }
        }
    }
}

/// libFuzzer's entry for one input. Its archive's own `main` calls it by this name, and the
/// linker may take that `main` for SwiftPM's.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    FuzzTarget.run(data.map { Data(bytes: $0, count: count) } ?? Data())
    return 0
}

/// With `-DFUZZING` (`make fuzz`), runs libFuzzer over ``FuzzTarget``; otherwise replays the
/// files given, libFuzzer's saved crashes or its corpus, to run them again under a debugger.
@main
enum FuzzMain {
    static func main() {
        #if FUZZING
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzOneInput))
        #else
        let paths = CommandLine.arguments.dropFirst()
        guard !paths.isEmpty else {
            FileHandle.standardError.write(Data("usage: signalscope-fuzz <input>... (replays fuzzer inputs)\n".utf8))
            exit(1)
        }
        for path in paths {
            guard let bytes = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("signalscope-fuzz: cannot read \(path)\n".utf8))
                exit(1)
            }
            FuzzTarget.run(bytes)
            print("ok \(path)")
        }
        #endif
    }
}
