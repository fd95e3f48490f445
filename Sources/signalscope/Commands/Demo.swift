import ArgumentParser
import Foundation
import SignalScopeTools

/// `signalscope demo`: records a bundled MVVM scenario and writes every output SignalScope
/// makes of it, to show what the tool does in one command.
struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a bundled scenario traced and write its trace, graph, timeline, Chrome trace and findings.")

    @Option(name: .shortAndLong, help: "The folder to write into.")
    var output = "out"

    @OptionGroup var force: ForceOption

    func run() throws {
        let folder = URL(fileURLWithPath: output)
        let tracePath = folder.appendingPathComponent("demo.sslog").path
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Tracer.startRecording(to: URL(fileURLWithPath: tracePath), values: true)
        } catch {
            throw CLIError("cannot record into \(output): \(error)")
        }
        DemoScenario.run()
        do {
            try Tracer.stopRecording()
        } catch {
            throw CLIError("cannot finish \(tracePath): \(error)")
        }

        let trace = try TraceLoading.load(tracePath)
        let report = trace.analyze()
        let dot = DOTWriter.dot(SignalGraph(trace: trace, report: report))
        func write(_ data: Data, _ name: String, _ what: String) throws {
            let path = folder.appendingPathComponent(name).path
            try writeOutput(data, to: path, force: force.isOn)
            standardOutput("  \(what.padding(toLength: 16, withPad: " ", startingAt: 0)) \(path)")
        }
        standardOutput("signalscope demo: recorded a search screen, a profile screen and a user request")
        standardOutput("  trace            \(tracePath)")
        let page = ReportPageMaking.page(trace: trace, analysis: report, title: "demo", editor: nil)
        try write(Data(page.utf8), "report.html", "report (open it)")
        do {
            try write(GraphvizRenderer.render(dot, format: .svg), "graph.svg", "signal graph")
        } catch let error as RenderingError {
            throw CLIError(error.description)
        }
        try write(Data(dot.utf8), "graph.dot", "graph (DOT)")
        try write(Data(MarbleTimeline(trace: trace, report: report).svg().utf8), "timeline.svg", "timeline")
        var chrome = ChromeTraceExporter()
        try write(chrome.export(trace), "trace.json", "Chrome trace")
        let checkReport = CheckReport(
            findings: report.findings, threshold: .error, traceWarnings: trace.warnings, limitations: report.limitations)
        try write(Data(TextFormat().render(checkReport, FindingsFormatOptions()).utf8), "findings.txt", "findings")
        try write(Data(SARIFFormat().render(checkReport, FindingsFormatOptions()).utf8), "findings.sarif", "findings (SARIF)")
        standardOutput("\n\(report.findings.count) findings (the demo leaks on purpose):\n")
        let colored = FindingsFormatOptions(colored: ColorChoice.auto.colors(STDOUT_FILENO))
        standardOutput(TextFormat().render(checkReport, colored), terminator: "")
    }
}

/// The scenario `demo` records: the patterns the RAC articles warn about, in a small app.
enum DemoScenario {
    /// A search box: typing is throttled, each query starts a request, and a newer query
    /// cancels the older request (switchToLatest).
    final class SearchViewModel {
        let query = MutableProperty("")
        let results: Signal<[String]>
        private let clock: TestScheduler

        init(clock: TestScheduler) {
            self.clock = clock
            results = query.signal
                .throttle(0.3, on: clock)
                .filter { !$0.isEmpty }
                .map { query in Signal<[String]>.just(["\(query) talk", "\(query) book"]).delay(0.4, on: clock) }
                .switchToLatest()
                .named("search results")
        }
    }

    /// A screen whose observer captures `self` strongly: it never deallocates.
    final class ProfileScreen {
        let name = MutableProperty("")
        var title = ""

        init() {
            name.signal.subscribeNext { name in self.title = "Profile of \(name)" }
        }
    }

    static func run() {
        let clock = TestScheduler()
        let search = SearchViewModel(clock: clock)
        var shown: [[String]] = []
        let subscription = search.results.subscribeNext { shown.append($0) }
        for text in ["r", "re", "rea", "reactive"] {
            search.query.value = text
            clock.advance(by: 0.2)
        }
        clock.advance(by: 1)
        subscription.dispose()

        let profile = ProfileScreen()
        profile.name.value = "Ada"

        // A cold signal subscribed twice performs its work twice.
        let fetchUser = Signal<String> { subscriber in
            subscriber.sendNext("user-42")
            subscriber.sendCompleted()
            return nil
        }.named("fetch user")
        fetchUser.subscribeNext { _ in }
        fetchUser.subscribeNext { _ in }
    }
}
