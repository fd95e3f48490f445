// Records two small scenes and writes every picture SignalScope makes of them into the
// folder given as the first argument (docs/images by default). scripts/render-examples.sh
// runs it; docs/rendering.md shows the results.
import Foundation
import SignalScopeTools

let folder = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? "docs/images")

final class LoginScreen {
    let username = MutableProperty("")
    var message = ""

    init() {
        // The RACObserve trap: the observer captures self, self owns the property.
        username.signal.map { $0.count >= 3 }.subscribeNext { valid in self.message = valid ? "" : "too short" }
    }
}

func searchScene() {
    let clock = TestScheduler()
    let text = Subject<String>().named("search text")
    let hints = text
        .throttle(0.3, on: clock)
        .map { query in Signal<[String]>.just(["\(query)1", "\(query)2"]).delay(0.5, on: clock) }
        .switchToLatest()
    let shown = hints.subscribeNext { _ in }
    for query in ["s", "sw", "swi", "swift"] {
        text.sendNext(query)
        clock.advance(by: 0.2)
    }
    clock.advance(by: 1)
    shown.dispose()
    text.sendCompleted()
}

func write(_ data: Data, _ name: String) throws {
    try data.write(to: folder.appendingPathComponent(name))
    print("wrote \(folder.appendingPathComponent(name).path)")
}

do {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let onlyThisProgram = { (site: TraceSite) in site.file.hasPrefix("RenderGallery/") }
    let trace = Tracer.record(values: true) {
        searchScene()
        _ = LoginScreen()
    }.restricted(to: onlyThisProgram)
    let report = trace.analyze()
    let graph = SignalGraph(trace: trace, report: report)
    try write(Data(DOTWriter.dot(graph).utf8), "signal-graph.dot")
    try write(GraphvizRenderer.render(DOTWriter.dot(graph), format: .svg), "signal-graph.svg")
    try write(GraphvizRenderer.render(DOTWriter.dot(graph), format: .png), "signal-graph.png")
    try write(Data(MarbleTimeline(trace: trace, report: report).svg().utf8), "timeline.svg")
    var chrome = ChromeTraceExporter()
    try write(chrome.export(trace), "trace.json")
    print(report.findings.map(\.description).joined(separator: "\n"))
} catch {
    FileHandle.standardError.write(Data("render-gallery: \(error)\n".utf8))
    exit(1)
}
