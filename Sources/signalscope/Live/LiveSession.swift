import Foundation
import Glibc
import SignalScopeTools

/// One `signalscope live` run: the server, the traced command, and the loop that streams the
/// trace to the pages as the command writes it.
struct LiveSession {
    let command: [String]
    let folder: String
    let port: UInt16
    let values: Bool
    let exitWhenDone: Bool

    /// Runs the command to its end, then serves its final report until the pages have it
    /// (`--exit-when-done`) or signalscope is interrupted; returns the command's status.
    func run() throws -> Int32 {
        let title = command.joined(separator: " ")
        let live = LiveReport(options: ReportPageMaking.options(title: title, editor: nil))
        let server = try LiveServer(port: port, page: live.page())
        server.start()
        defer { server.stop() }
        standardError("signalscope: live at http://127.0.0.1:\(server.port)/?token=\(server.token)")
        let tracePath = "\(folder)/trace-%p.sslog"
        let streaming = Streaming(folder: folder, hub: server.hub, live: live)
        let stream = Thread { streaming.loop() }
        stream.start()
        let run = TracedRun(command: command, tracePath: tracePath, values: values, announceHint: "it is on the live page")
        let status: Int32
        do {
            status = try run.run()
        } catch {
            streaming.stop()
            throw error
        }
        streaming.stop()
        streaming.finish()
        // The page says at once that the program ended: the final report can take a while.
        server.hub.publish(#"{"kind":"ended","status":\#(status)}"#)
        let traces = TracedRun.tracesWritten(in: folder)
        guard !traces.isEmpty else {
            // Nothing to show: the page and standard error say why, as check does.
            server.hub.publish(LiveMessage.text("warning", run.noTraceReason))
            throw run.wroteNoTrace(status: status)
        }
        // One report per traced process, each named; several are listed at /report.
        var reports: [(process: String, path: String)] = []
        for trace in traces {
            let process = TracedRun.processID(ofTrace: trace)
            let reportPath = "\(folder)/report-\(process).html"
            Self.writeFinalReport(of: trace, title: traces.count == 1 ? title : "\(title) · process \(process)", to: reportPath)
            reports.append((process, reportPath))
        }
        server.setReports(reports)
        server.hub.finish(#"{"kind":"end","status":\#(status)}"#)
        if exitWhenDone {
            // Every page connected at the end says it received it; a page that never does is
            // given ten seconds.
            let deadline = Date().addingTimeInterval(10)
            while !server.hub.everyPageHasTheEnd, Date() < deadline {
                Thread.sleep(forTimeInterval: 0.05)
            }
            // Let the pages load the report they were sent to.
            Thread.sleep(forTimeInterval: 0.5)
            return status
        }
        standardError("signalscope: \(command[0]) ended (status \(status)); the final report is on the page; Ctrl-C to stop serving")
        Interruptions.waitForStop()
        return status
    }

    /// Writes the final report to `path`, from where the server streams it. `signalscope
    /// report` makes it, in a process of its own: reading and analysing the whole trace takes
    /// memory in proportion to it (a gigabyte for a million events), which the server, which
    /// runs on until it is stopped, would otherwise keep.
    private static func writeFinalReport(of trace: String, title: String, to path: String) {
        let report = Process()
        report.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        // `--title=…`: a command that starts with a dash is the title, never an option.
        report.arguments = ["report", trace, "-o", path, "--title=\(title)"]
        report.standardOutput = FileHandle.nullDevice
        do {
            try report.run()
            Interruptions.stopWhenInterrupted(report.processIdentifier)
            report.waitUntilExit()
            Interruptions.forget(process: report.processIdentifier)
        } catch {
            standardError("signalscope: warning: cannot make the final report: \(reason(error))")
        }
        guard report.terminationStatus != 0 || !FileManager.default.fileExists(atPath: path) else { return }
        let page = "<!DOCTYPE html><title>SignalScope</title><p>The final report could not be made from \(XMLText.escaped(trace)); "
            + "signalscope report says why on standard error.</p>"
        try? Data(page.utf8).write(to: URL(fileURLWithPath: path))
    }
}

/// Reads the trace the command writes while it runs and publishes what it adds to the
/// pages: its timeline as each batch comes, its graph and the findings proven of it (watched
/// objects retained) at most once a second, and sooner when a watched object's fate is
/// recorded (``graphIsDue(urgent:)``).
final class Streaming: @unchecked Sendable {
    private let folder: String
    private let hub: LiveHub
    private let live: LiveReport
    private let lock = NSLock()
    private var stopped = false
    private var reader: LiveLogReader?
    /// Records drawn into one timeline message at most: a message is built whole in memory.
    private static let recordsPerMessage = 5_000
    /// The trace the page follows, and how many traced processes the page has been told of.
    private var followed: String?
    private var lastTrim = ContinuousClock.now
    private var namedProcesses = 1
    private var reportedProblem = false
    private var lastGraph: ContinuousClock.Instant?
    private var graphCost: Duration = .zero
    /// Signalled when the loop has returned, so that nothing reads the log beside it.
    private let loopEnded = DispatchSemaphore(value: 0)

    init(folder: String, hub: LiveHub, live: LiveReport) {
        self.folder = folder
        self.hub = hub
        self.live = live
    }

    func loop() {
        defer { loopEnded.signal() }
        while !lock.withLock({ stopped }) {
            // A reader behind the program reads on at once, a step at a time.
            if !pollOnce() { Thread.sleep(forTimeInterval: 0.1) }
        }
    }

    /// Stops the loop and waits for it to return.
    func stop() {
        lock.withLock { stopped = true }
        loopEnded.wait()
    }

    /// The last reads, after the command ended: to the end of the log.
    func finish() {
        while pollOnce() {}
    }

    /// glibc's `malloc_trim`, which the Glibc module does not export: looked up once.
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = dlsym(nil, "malloc_trim")
        .map { unsafeBitCast($0, to: (@convention(c) (Int) -> Int32).self) }

    private static func returnFreedMemory() { _ = mallocTrim?(0) }

    /// Reads one step of the log and publishes what it drew; whether more is waiting.
    @discardableResult
    private func pollOnce() -> Bool {
        let traces = TracedRun.tracesWritten(in: folder)
        if reader == nil, let first = traces.first {
            reader = LiveLogReader(path: first)
            followed = first
        }
        guard let reader, let followed else { return false }
        if traces.count > namedProcesses {
            // The page follows one process; it and standard error name every other one, whose
            // report comes with the end.
            namedProcesses = traces.count
            let others = traces.filter { $0 != followed }.map { "process \(TracedRun.processID(ofTrace: $0))" }
            let note = "\(traces.count) traced processes: this page follows process \(TracedRun.processID(ofTrace: followed)); "
                + "\(others.joined(separator: ", ")) \(others.count == 1 ? "has its" : "have their") own final report at the end"
            standardError("signalscope: \(note)")
            hub.publish(LiveMessage.text("note", note))
        }
        let records = reader.poll(maximumBytes: 1 << 20)
        if let problem = reader.problem, !reportedProblem {
            // The page must not look live when it no longer is.
            reportedProblem = true
            standardError("signalscope: warning: \(problem); the page shows nothing newer, the final report reads what it can")
            hub.publish(LiveMessage.text("warning", problem))
        }
        // Messages of bounded size; past the hub's window, a checkpoint of what they led to.
        for start in stride(from: 0, to: records.count, by: Self.recordsPerMessage) {
            if let timeline = live.add(Array(records[start..<min(start + Self.recordsPerMessage, records.count)])) { hub.publish(timeline) }
            if hub.isWindowFull { hub.checkpoint(live.stateMessage()) }
        }
        if (live.findingsAreStale && graphIsDue(urgent: true)) || (live.graphIsStale && graphIsDue(urgent: false)) { publishGraph() }
        // Each message is built of many small blocks, freed once it is sent, among blocks still
        // in use: give their pages back now and then, or the freed memory grows with the run.
        if lastTrim.duration(to: .now) > .seconds(1) {
            lastTrim = .now
            Self.returnFreedMemory()
        }
        return reader.hasMore
    }

    /// What a running program proves: a watched object kept past its deadline, seen in the
    /// snapshot taken then. The other rules judge a program that has ended, at its closing
    /// snapshot, which a running program has not taken yet: the final report runs them.
    private static func analyzeRunning(_ trace: Trace) -> AnalysisReport {
        let report = trace.analyze(rules: [.retainedAfterRelease])
        let closing = Set(trace.analysisLimitations)
        return AnalysisReport(
            findings: report.findings,
            limitations: ["While the program runs, only objects watched with expectDeallocation are judged, as their deadlines pass; the final report judges every rule at the program's end."]
                + report.limitations.filter { !closing.contains($0) })
    }

    /// Whether the graph may be drawn again: a second after it was last drawn and five times
    /// what drawing it took (a graph that takes long to lay out is drawn less often), or, when
    /// `urgent` (a watched object's fate came), twice what drawing it took. Drawing runs
    /// between reads of the log, so the gap bounds how long the timeline waits for it.
    private func graphIsDue(urgent: Bool) -> Bool {
        guard let lastGraph else { return true }
        let since = lastGraph.duration(to: .now)
        return urgent ? since >= graphCost * 2 : since >= max(.seconds(1), graphCost * 5)
    }

    private func publishGraph() {
        let started = ContinuousClock.now
        let message = live.graphMessage(analysis: Self.analyzeRunning, render: ReportPageMaking.svg(of:))
        lastGraph = .now
        graphCost = started.duration(to: lastGraph!)
        hub.publishLatest(message)
    }
}

/// The live page's messages that carry one line of text: `{"kind":"warning","text":…}` (the
/// page no longer updates) and `{"kind":"note","text":…}` (what the page shows, and what not).
enum LiveMessage {
    static func text(_ kind: String, _ text: String) -> String {
        var message = JSONBuffer()
        message.raw(#"{"kind":"#)
        message.string(kind)
        message.raw(#","text":"#)
        message.string(text)
        message.raw("}")
        return String(decoding: message.bytes, as: UTF8.self)
    }
}
