import Foundation
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
        let server = try LiveServer(port: port, title: command.joined(separator: " "))
        let port = try Blocking { try await server.start() }.wait()
        standardError("signalscope: live at http://127.0.0.1:\(port)/?token=\(server.token)")
        let tracePath = "\(folder)/trace-%p.sslog"
        let streaming = Streaming(folder: folder, hub: server.hub)
        let stream = Thread { streaming.loop() }
        stream.start()
        let status: Int32
        do {
            status = try TracedRun(command: command, tracePath: tracePath, values: values, announceHint: "it is on the live page").run()
        } catch {
            streaming.stop()
            throw error
        }
        streaming.stop()
        streaming.finish()
        if let trace = TracedRun.tracesWritten(in: folder).first {
            server.setReport(Self.finalReport(of: trace, title: command.joined(separator: " ")))
        }
        Blocking { await server.hub.finish(#"{"kind":"end","status":\#(status)}"#) }.waitIgnoringErrors()
        if exitWhenDone {
            // Every page connected at the end says it received it; a page that never does is
            // given ten seconds.
            let deadline = Date().addingTimeInterval(10)
            while !Blocking({ await server.hub.everyPageHasTheEnd }).waitOrFalse(), Date() < deadline {
                Thread.sleep(forTimeInterval: 0.05)
            }
            // Let the pages load the report they were sent to.
            Thread.sleep(forTimeInterval: 0.5)
            Blocking { await server.stop() }.waitIgnoringErrors()
            return status
        }
        standardError("signalscope: \(command[0]) ended (status \(status)); the final report is on the page; Ctrl-C to stop serving")
        SignalWaiting.waitForInterrupt()
        Blocking { await server.stop() }.waitIgnoringErrors()
        return status
    }

    private static func finalReport(of path: String, title: String) -> String {
        do {
            let trace = try Trace(contentsOf: URL(fileURLWithPath: path))
            return ReportPageMaking.page(trace: trace, analysis: trace.analyze(), title: title, editor: nil)
        } catch {
            return "<!DOCTYPE html><title>SignalScope</title><p>The trace could not be read: \(XMLText.escaped("\(error)"))</p>"
        }
    }
}

/// Reads the traces the command writes while it runs and publishes their records, and the
/// retained objects the analysis proves from them, to the pages.
final class Streaming: @unchecked Sendable {
    private let folder: String
    private let hub: LiveHub
    private let lock = NSLock()
    private var stopped = false
    private var reader: LiveLogReader?
    private var path: String?
    private var reportedFindings: Set<String> = []
    private var reportedProblem = false
    /// Signalled when the loop has returned, so that nothing reads the log beside it.
    private let loopEnded = DispatchSemaphore(value: 0)

    init(folder: String, hub: LiveHub) {
        self.folder = folder
        self.hub = hub
    }

    func loop() {
        defer { loopEnded.signal() }
        while !lock.withLock({ stopped }) {
            pollOnce()
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    /// Stops the loop and waits for it to return.
    func stop() {
        lock.withLock { stopped = true }
        loopEnded.wait()
    }

    /// One last read, after the command ended.
    func finish() { pollOnce() }

    private func pollOnce() {
        if reader == nil, let first = TracedRun.tracesWritten(in: folder).first {
            path = first
            reader = LiveLogReader(path: first)
        }
        guard let reader, let path else { return }
        let records = reader.poll()
        if let problem = reader.problem, !reportedProblem {
            // The page must not look live when it no longer is.
            reportedProblem = true
            standardError("signalscope: warning: \(problem); the page shows nothing newer, the final report reads what it can")
            var message = JSONBuffer()
            message.raw(#"{"kind":"warning","text":"#)
            message.string(problem)
            message.raw("}")
            let text = String(decoding: message.bytes, as: UTF8.self)
            Blocking { await self.hub.publish(text) }.waitIgnoringErrors()
        }
        guard !records.isEmpty else { return }
        var buffer = JSONBuffer()
        var exporter = JSONLinesExporter()
        for record in records { exporter.add(record, into: &buffer) }
        let lines = String(decoding: buffer.bytes, as: UTF8.self).split(separator: "\n")
        let message = #"{"kind":"records","records":["# + lines.joined(separator: ",") + "]}"
        Blocking { await self.hub.publish(message) }.waitIgnoringErrors()
        let retained = records.contains { record in
            if case .extended(let event) = record.event { event.payload is RetainedObject } else { false }
        }
        if retained { publishFindings(of: path) }
    }

    private static func member(_ json: inout JSONBuffer, _ key: String, _ value: String) {
        json.key(key)
        json.string(value)
        json.raw(",")
    }

    private static func array(_ json: inout JSONBuffer, _ key: String, _ values: [String]) {
        json.key(key)
        json.raw("[")
        for (index, value) in values.enumerated() {
            if index > 0 { json.raw(",") }
            json.string(value)
        }
        json.raw("]")
    }

    /// Proves the retained objects from the trace so far (its cut tail is fine) and sends the
    /// new findings.
    private func publishFindings(of path: String) {
        guard let trace = try? Trace(contentsOf: URL(fileURLWithPath: path), detail: .liveEntities) else { return }
        for finding in trace.analyze(rules: [.retainedAfterRelease]).findings {
            let key = finding.fingerprint + "\(finding.location.line)"
            guard reportedFindings.insert(key).inserted else { continue }
            let nodes = finding.entities.compactMap { entity -> String? in if case .node(let id) = entity { id.description } else { nil } }
            var json = JSONBuffer()
            json.raw(#"{"kind":"finding","finding":{"#)
            Self.member(&json, "rule", finding.rule.rawValue)
            Self.member(&json, "severity", finding.severity.rawValue)
            Self.member(&json, "message", finding.message)
            Self.member(&json, "hint", finding.hint)
            json.key("site")
            json.raw("{")
            Self.member(&json, "file", finding.location.file)
            json.key("line")
            json.number(finding.location.line)
            json.raw("},")
            Self.array(&json, "path", finding.path)
            json.raw(",")
            Self.array(&json, "nodes", nodes)
            json.raw("}}")
            let message = String(decoding: json.bytes, as: UTF8.self)
            Blocking { await self.hub.publish(message) }.waitIgnoringErrors()
        }
    }
}
