import Foundation
import Synchronization
import SignalScopeTools
@testable import SignalScopeTracing
import Testing

@Suite("Reading event logs", .timeLimit(.minutes(10)))
final class EventLogReaderTests {
    /// Each test's logs, removed when it ends.
    private let folder = FileManager.default.temporaryDirectory.appendingPathComponent("signalscope-reader-\(UUID())")

    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// A small recorded log and its records, those in batches one by one. (Recorded in
    /// memory: the file recording is one per process, and other suites use it.)
    private func sampleLog() throws -> (url: URL, bytes: [UInt8], records: [Stored]) {
        let sink = MemorySink()
        let recorder = try Recorder(sink: sink, recordsValues: false)
        Instrumentation.install(recorder)
        let subject = Subject<Int>()
        subject.map { $0 + 1 }.subscribe()
        for value in 0..<5 { subject.sendNext(value) }
        subject.sendCompleted()
        Instrumentation.uninstall(recorder)
        try recorder.finish()
        let bytes = sink.bytes
        let url = try write(bytes)
        return (url, bytes, records(bytes).filter { $0.kind != EventLogFormat.batchKind })
    }

    private func temporaryFile() -> URL {
        folder.appendingPathComponent("\(UUID()).sslog")
    }

    private func write(_ bytes: [UInt8]) throws -> URL {
        let url = temporaryFile()
        try Data(bytes).write(to: url)
        return url
    }

    @Test("A log cut inside a record reads up to the last complete record, with a warning naming the offset")
    func truncated() throws {
        let sample = try sampleLog()
        let whole = try Trace(contentsOf: sample.url)
        let last = try #require(sample.records.last)
        let half = last.size / 2
        let cut = try write(Array(sample.bytes[..<(last.offset + half)]))
        let trace = try Trace(contentsOf: cut)
        #expect(trace.records.count == whole.records.count - 1)
        #expect(
            trace.warnings.first
                == "\(cut.path): truncated record at byte offset \(last.offset) (\(half) of \(last.size) bytes); reading stopped there")
        // The end record was cut, or it came before the cut in a batch drained earlier
        // (another test's thread recorded into this recording meanwhile).
        #expect(trace.warnings.dropFirst().contains { $0.hasPrefix("\(cut.path) has no end record") } == (last.kind == EndRecord.kind))

        let midRecord = try #require(sample.records.dropFirst(3).first { !$0.isCompact && $0.size > 40 }).offset
        let shorter = try write(Array(sample.bytes[..<(midRecord + 40)]))
        #expect(try Trace(contentsOf: shorter).warnings.first?.contains("byte offset \(midRecord)") == true)
    }

    @Test("Progress is reported in increasing fractions of the file, at most once per percent")
    func progress() throws {
        let sample = try sampleLog()
        var fractions: [Double] = []
        _ = try Trace(contentsOf: sample.url) { fractions.append($0) }
        #expect(!fractions.isEmpty)
        #expect(fractions == fractions.sorted())
        #expect(fractions.allSatisfy { $0 > 0 && $0 < 1 })
        #expect(fractions.count <= 100)
        #expect(fractions.count <= sample.records.count)
    }

    @Test("Every event is counted, whether the trace keeps the records or only live entities")
    func eventCount() throws {
        let sample = try sampleLog()
        let strings = sample.records.count { $0.kind == StringRecord.kind }
        let everything = try Trace(contentsOf: sample.url)
        #expect(strings > 0)
        #expect(everything.eventCount == sample.records.count - strings)
        #expect(everything.eventCount == everything.records.count)
        #expect(try Trace(contentsOf: sample.url, detail: .liveEntities).eventCount == everything.eventCount)
    }

    @Test("A corrupt batch stops reading there with a warning, keeping what came before; a corrupt record in a batch loses the rest of the batch")
    func corrupt() throws {
        let sample = try sampleLog()
        let end = try #require(sample.records.last { $0.kind == EndRecord.kind })
        let batch = try #require(end.batch)
        for broken in [batch, end.offset] {
            var bytes = sample.bytes
            bytes.replaceSubrange(broken..<(broken + 4), with: [3, 0, 0, 0])
            let url = try write(bytes)
            let trace = try Trace(contentsOf: url)
            #expect(trace.warnings.count == 2, "the corrupt record, and the end record not read: \(trace.warnings)")
            let skipped = broken == batch ? "the last \(bytes.count - batch) bytes were skipped" : "the rest of its batch was skipped"
            #expect(trace.warnings[0] == "\(url.path): corrupt record at byte offset \(broken) (size 3); \(skipped)")
            #expect(trace.records.count >= sample.records.count { $0.offset < broken && $0.kind != StringRecord.kind })
        }
    }

    @Test("Record kinds from a newer minor version are skipped")
    func unknownKinds() throws {
        let sample = try sampleLog()
        var bytes = sample.bytes
        // Records of several threads interleave in the file: find the end record by its kind.
        let end = try #require(sample.records.first { $0.kind == EndRecord.kind }).offset
        bytes[end + 4] = 200
        let trace = try Trace(contentsOf: try write(bytes))
        #expect(trace.warnings.count == 1 && trace.warnings[0].contains("has no end record"), "\(trace.warnings)")
        #expect(!trace.hasEnd, "the end record was the one made unknown")
        #expect(trace.records.count == (try Trace(contentsOf: sample.url)).records.count - 1)
    }

    @Test("A file that is not an event log gets a one-line error naming it")
    func foreign() throws {
        let text = try write(Array("{\"hello\": \"world\"}\n".utf8))
        #expect(throws: TraceReadError.notAnEventLog(path: text.path)) { try Trace(contentsOf: text) }
        let empty = try write([])
        #expect(throws: TraceReadError.notAnEventLog(path: empty.path)) { try Trace(contentsOf: empty) }
        #expect("\(TraceReadError.notAnEventLog(path: text.path))" == "\(text.path) is not a SignalScope event log")
    }

    @Test("A log from another major version, the pre-release format 1 included, is refused with the versions named", arguments: [1, 4])
    func unsupportedVersion(major: UInt8) throws {
        var bytes = try sampleLog().bytes
        bytes[8] = major
        bytes[10] = 4
        let url = try write(bytes)
        #expect(throws: TraceReadError.unsupportedVersion(path: url.path, major: UInt16(major), minor: 4)) { try Trace(contentsOf: url) }
        #expect("\(TraceReadError.unsupportedVersion(path: "t.sslog", major: UInt16(major), minor: 4))"
            == "t.sslog uses event log format \(major).4; this SignalScope reads format 3.x (and 2.x)")
    }

    @Test("A missing file is unreadable, with the path")
    func missing() {
        let url = URL(fileURLWithPath: "/nonexistent/trace.sslog")
        #expect {
            try Trace(contentsOf: url)
        } throws: { error in
            guard case .unreadable(let path, _) = error as? TraceReadError else { return false }
            return path == url.path
        }
    }

    final class Screen {
        let taps = Subject<Int>()
        var count = 0

        /// The observer captures self: the screen leaks with its subject. Returns the line.
        static func leak() -> Int {
            let screen = Screen()
            screen.taps.subscribeNext { _ in screen.count += 1 }
            return #line - 1
        }
    }

    /// A record of a log: where it is, its kind and thread, and the batch holding it.
    private struct Stored {
        let offset: Int
        let size: Int
        let kind: UInt8
        let thread: UInt32
        let isCompact: Bool
        let batch: Int?
    }

    /// The records of a log: each batch, then its records.
    private func records(_ bytes: [UInt8]) -> [Stored] {
        var found: [Stored] = []
        _ = bytes.withUnsafeBytes { buffer in
            RecordsInMemory.walk(UnsafeRawBufferPointer(rebasing: buffer[EventLogFormat.headerSize...])) { stored, range, batch in
                let start = EventLogFormat.headerSize
                found.append(
                    Stored(
                        offset: start + range.lowerBound, size: range.count, kind: stored.prefix.kind, thread: stored.prefix.thread,
                        isCompact: stored.compact != nil, batch: batch.map { start + $0 }))
            }
        }
        return found
    }

    @Test("Records are applied in sequence order: a subscription made on another thread just before the end is seen, wherever the file has it")
    func sequenceOrder() throws {
        let sink = MemorySink()
        let recorder = try Recorder(sink: sink, recordsValues: false)
        Instrumentation.install(recorder)
        Subject<Int>().sendCompleted()  // this thread's buffer is registered first
        let subscribed = DispatchSemaphore(value: 0), finished = DispatchSemaphore(value: 0)
        let line = Mutex(0)
        let other = Thread {
            line.withLock { $0 = Screen.leak() }
            subscribed.signal()
            finished.wait()
        }
        other.start()
        subscribed.wait()
        Instrumentation.uninstall(recorder)
        try recorder.finish()
        finished.signal()

        // The same log as written, and with the other thread's records moved after
        // everything else, its subscription after the closing snapshot: what a writer that
        // drains that thread's buffer last produces.
        let written = sink.bytes
        let all = records(written)
        let otherThread = try #require(all.first { $0.kind == SubscribeRecord.kind && $0.thread != all[0].thread }?.thread)
        let batches = all.filter { $0.batch == nil }
        var reordered = Array(written[0..<EventLogFormat.headerSize])
        for batch in batches where batch.thread != otherThread { reordered += written[batch.offset..<(batch.offset + batch.size)] }
        for batch in batches where batch.thread == otherThread { reordered += written[batch.offset..<(batch.offset + batch.size)] }
        let moved = records(reordered)
        let snapshotAt = try #require(moved.firstIndex { $0.kind == SnapshotRecord.kind })
        #expect(moved.lastIndex { $0.kind == SubscribeRecord.kind && $0.thread == otherThread }! > snapshotAt)

        for bytes in [written, reordered] {
            let trace = try Trace(contentsOf: try write(bytes))
            #expect(trace.records.map(\.sequence) == trace.records.map(\.sequence).sorted())
            // Other tests of this file may subscribe while this recorder is installed.
            let findings = trace.analyze().findings.filter {
                $0.location.file == "SignalScopeTracingTests/EventLogReaderTests.swift" && $0.location.line == line.withLock { $0 }
            }
            #expect(findings.map(\.rule) == [.selfCapturedObserver])
        }
    }

    @Test("A log truncated by another process while it is read stops where the file now ends, with a warning (a mapped log faulted with SIGBUS)")
    func truncatedWhileRead() throws {
        let sink = MemorySink()
        let recorder = try Recorder(sink: sink, recordsValues: true)
        Instrumentation.install(recorder)
        let subject = Subject<String>()
        subject.subscribe()
        for value in 0..<20_000 { subject.sendNext(String(repeating: "v", count: value % 70)) }
        Instrumentation.uninstall(recorder)
        try recorder.finish()
        let url = try write(sink.bytes)
        let size = sink.bytes.count
        var cut = false
        // The second pass reports progress; cut the file to a quarter as it does, the way a
        // test harness rotating the log, or the still-running program rewriting it, would.
        let trace = try Trace(contentsOf: url) { fraction in
            guard !cut, fraction > 0.3 else { return }
            cut = true
            #expect(truncate(url.path, off_t(size / 4)) == 0)
        }
        #expect(cut)
        #expect(trace.warnings.contains { $0.contains("shrank while it was read") }, "\(trace.warnings)")
        #expect(trace.records.count > 1_000, "what was read before the cut is kept")
    }

    @Test("A log without its end record says on reading that it was cut off")
    func noEndRecord() throws {
        let sample = try sampleLog()
        let endAt = try #require(sample.records.last { $0.kind == EndRecord.kind }).offset
        let trace = try Trace(contentsOf: try write(Array(sample.bytes[..<endAt])))
        #expect(!trace.hasEnd)
        #expect(trace.warnings.contains { $0.hasSuffix("has no end record: the recording was cut off (the process was killed or crashed, or the disk filled), so what happened after its last record is missing") })
        #expect(trace.analyze().limitations.contains { $0.hasPrefix("the recording was cut off during its closing heap snapshot") })
        #expect(try Trace(contentsOf: sample.url).warnings.isEmpty)
    }

    @Test("A process killed with SIGKILL while recording leaves a log that reads up to its last record")
    func killedWhileRecording() async throws {
        let url = URL(fileURLWithPath: "/tmp/signalscope-sigkill-test.sslog")
        try? FileManager.default.removeItem(at: url)
        await #expect(processExitsWith: .signal(SIGKILL)) {
            try Tracer.startRecording(to: URL(fileURLWithPath: "/tmp/signalscope-sigkill-test.sslog"))
            let subject = Subject<Int>()
            subject.subscribe()
            let start = Date()
            var value = 0
            while Date().timeIntervalSince(start) < 0.35 {
                subject.sendNext(value)
                value += 1
            }
            kill(getpid(), SIGKILL)
        }
        defer { try? FileManager.default.removeItem(at: url) }
        let trace = try Trace(contentsOf: url)
        #expect(!trace.hasEnd)
        #expect(trace.records.count > 1_000, "buffers were flushed while the process ran")
        #expect(!trace.heap.hasSnapshot)
        #expect(trace.analyze().limitations.first?.hasPrefix("the trace has no closing heap snapshot") == true)
        // The log has no end record; a kill that lands inside a write also cuts its last
        // record short. Nothing else may be wrong with it.
        #expect(trace.warnings.contains { $0.contains("has no end record") })
        #expect(trace.warnings.allSatisfy { $0.contains("has no end record") || $0.contains("truncated record") }, "\(trace.warnings)")
    }
}
