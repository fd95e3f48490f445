import Foundation
import Glibc
import SignalScopeTools
import Synchronization

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
    func run() async throws -> Int32 {
        let title = command.joined(separator: " ")
        let options = ReportPageMaking.options(title: title, editor: nil)
        let server = try LiveServer(port: port, page: LiveReport(options: options).page())
        server.start()
        do {
            let status = try await serve(server, title: title)
            await server.stop()
            return status
        } catch {
            await server.stop()
            throw error
        }
    }

    private func serve(_ server: LiveServer, title: String) async throws -> Int32 {
        let address = "http://127.0.0.1:\(server.port)/?token=\(server.token)"
        standardError("signalscope: live at \(address)")
        let tracePath = "\(folder)/trace-%p.sslog"
        let streaming = Streaming(folder: folder, hubs: server.hubs, title: title, address: address)
        let stream = Task { await streaming.run() }
        let run = TracedRun(command: command, tracePath: tracePath, values: values, announceHint: "it is on the live page")
        let status: Int32
        do {
            status = try await Blocking.run { try run.run() }
        } catch {
            stream.cancel()
            await stream.value
            throw error
        }
        // The logs are read to their ends, then the streams end.
        streaming.commandEnded()
        await stream.value
        // Each page says at once that the program ended: the final report can take a while.
        for hub in server.hubs.all { hub.publish(#"{"kind":"ended","status":\#(status)}"#) }
        let traces = TracedRun.tracesWritten(in: folder)
        guard !traces.isEmpty else {
            // Nothing to show: the page and standard error say why, as check does.
            server.hubs.main.publish(LiveMessage.text("warning", run.noTraceReason))
            throw run.wroteNoTrace(status: status)
        }
        // One report per traced process, each named; several are listed at /report, and each
        // process's page goes to its own.
        var reports: [(process: String, path: String)] = []
        for trace in traces {
            let process = TracedRun.processID(ofTrace: trace)
            let reportPath = "\(folder)/report-\(process).html"
            let reportTitle = traces.count == 1 ? title : "\(title) · process \(process)"
            await Blocking.run { Self.writeFinalReport(of: trace, title: reportTitle, to: reportPath) }
            reports.append((process, reportPath))
        }
        server.setReports(reports)
        for hub in server.hubs.all { hub.finish(#"{"kind":"end","status":\#(status)}"#) }
        if exitWhenDone {
            // Every page connected at the end says it received it; a page that never does is
            // given ten seconds.
            let deadline = ContinuousClock.now + .seconds(10)
            while !server.hubs.everyPageHasTheEnd, ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(50))
            }
            // Let the pages load the report they were sent to.
            try? await Task.sleep(for: .milliseconds(500))
            return status
        }
        standardError("signalscope: \(command[0]) ended (status \(status)); the final report is on the page; Ctrl-C to stop serving")
        await Interruptions.stopRequested()
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
        // A report ended by a signal to signalscope is not a report that failed: the folder is
        // being removed.
        Interruptions.unlessEnding {
            let page = "<!DOCTYPE html><title>SignalScope</title><p>The final report could not be made from \(XMLText.escaped(trace)); "
                + "signalscope report says why on standard error.</p>"
            try? Data(page.utf8).write(to: URL(fileURLWithPath: path))
        }
    }
}

/// Reads the traces the command's processes write while they run and publishes what each
/// adds to its process's pages (``LiveHubs``): its timeline as each batch comes, its graph and
/// the findings proven of it (watched objects retained) at most once a second, and sooner
/// when a watched object's fate is recorded (``ProcessStream/graphIsDue(urgent:)``). Every
/// page is told of every process, with a link to its page. Each process's log is a task of its
/// own, following the log's batches (``LiveLogReader/batches(maximumBytes:idle:isFinished:)``).
final class Streaming: Sendable {
    private let folder: String
    private let hubs: LiveHubs
    /// The report's title: each process's stream makes its options of its own (their source
    /// resolver keeps a cache, which two streams must not share).
    private let title: String
    /// The first process's page, which the others' links are made from.
    private let address: String
    private let ended = Atomic(false)

    init(folder: String, hubs: LiveHubs, title: String, address: String) {
        self.folder = folder
        self.hubs = hubs
        self.title = title
        self.address = address
    }

    /// Says that the command has ended: every log is read to its end, and then ``run()``
    /// returns.
    func commandEnded() {
        ended.store(true, ordering: .sequentiallyConsistent)
    }

    private var hasEnded: Bool { ended.load(ordering: .sequentiallyConsistent) }

    /// Follows every log the command's processes write, each as it appears, until the command
    /// has ended and each is read to its end, or the task is cancelled.
    func run() async {
        await withTaskGroup(of: Void.self) { group in
            var followed: Set<String> = []
            var lastTrim = ContinuousClock.now
            while !Task.isCancelled {
                // Asked before looking: a process that wrote its log before the end is found.
                let finished = hasEnded
                for trace in TracedRun.tracesWritten(in: folder) where followed.insert(trace).inserted {
                    let process = TracedRun.processID(ofTrace: trace)
                    let hub = hubs.hub(for: process)
                    group.addTask { [self] in await follow(trace, hub: hub) }
                    if followed.count > 1 {
                        standardError("signalscope: process \(process) is traced too: \(address)&process=\(process)")
                        announceProcesses()
                    }
                }
                // Each message is built of many small blocks, freed once it is sent, among
                // blocks still in use: give their pages back now and then, or the freed memory
                // grows with the run.
                if lastTrim.duration(to: .now) > .seconds(1) {
                    lastTrim = .now
                    Self.returnFreedMemory()
                }
                if finished { break }
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        Self.returnFreedMemory()
    }

    /// Draws one process's log on its pages, batch by batch, to its end.
    private func follow(_ path: String, hub: LiveHub) async {
        let stream = ProcessStream(hub: hub, live: LiveReport(options: ReportPageMaking.options(title: title, editor: nil)))
        let reader = LiveLogReader(path: path)
        for await records in reader.batches(maximumBytes: 1 << 20, isFinished: { [self] in hasEnded }) {
            stream.take(records, problem: reader.problem)
        }
        // A problem that ended the batches is said too.
        stream.take([], problem: reader.problem)
    }

    /// glibc's `malloc_trim`, which the Glibc module does not export: looked up once.
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = dlsym(nil, "malloc_trim")
        .map { unsafeBitCast($0, to: (@convention(c) (Int) -> Int32).self) }

    private static func returnFreedMemory() { _ = mallocTrim?(0) }

    /// Tells every page of every process which processes there are, the first first.
    private func announceProcesses() {
        var message = JSONBuffer()
        message.raw(#"{"kind":"processes","processes":["#)
        for (index, process) in hubs.processes.enumerated() {
            if index > 0 { message.raw(",") }
            message.string(process)
        }
        message.raw("]}")
        let text = String(decoding: message.bytes, as: UTF8.self)
        for hub in hubs.all { hub.publishLatest(text, replacing: "processes") }
    }
}

/// What one traced process's log draws on that process's pages.
final class ProcessStream {
    private let hub: LiveHub
    private let live: LiveReport
    /// Records drawn into one timeline message at most: a message is built whole in memory.
    private static let recordsPerMessage = 5_000
    private var reportedProblem = false
    private var lastGraph: ContinuousClock.Instant?
    private var graphCost: Duration = .zero

    init(hub: LiveHub, live: LiveReport) {
        self.hub = hub
        self.live = live
    }

    /// Publishes what a batch of the log draws (an empty batch: nothing new, but the graph
    /// may be due), and, once, why reading stopped (`problem`).
    func take(_ records: [TraceRecord], problem: String?) {
        if let problem, !reportedProblem {
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
    /// between reads of the logs, so the gap bounds how long the timelines wait for it.
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
        hub.publishLatest(message, replacing: "graph")
    }
}

/// The live page's messages that carry one line of text: `{"kind":"warning","text":…}` (the
/// page no longer updates, or what it cannot show).
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
