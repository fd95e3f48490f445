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

    /// A small recorded log and the byte offset of each of its records. (Recorded in memory:
    /// the file recording is one per process, and other suites use it.)
    private func sampleLog() throws -> (url: URL, bytes: [UInt8], recordOffsets: [Int]) {
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
        var offsets: [Int] = []
        var offset = 16
        while offset < bytes.count {
            offsets.append(offset)
            offset += Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16
        }
        return (url, bytes, offsets)
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
        let last = sample.recordOffsets.last!
        let cut = try write(Array(sample.bytes[..<(last + 20)]))
        let trace = try Trace(contentsOf: cut)
        #expect(trace.records.count == whole.records.count - 1)
        #expect(trace.warnings.first == "\(cut.path): truncated record at byte offset \(last) (20 bytes); reading stopped there")
        #expect(trace.warnings.dropFirst().contains { $0.hasPrefix("\(cut.path) has no end record") })

        let midRecord = sample.recordOffsets[3]
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
        #expect(fractions.count <= sample.recordOffsets.count)
    }

    @Test("Every event is counted, whether the trace keeps the records or only live entities")
    func eventCount() throws {
        let sample = try sampleLog()
        let strings = sample.recordOffsets.count { sample.bytes[$0 + 4] == 1 }
        let everything = try Trace(contentsOf: sample.url)
        #expect(strings > 0)
        #expect(everything.eventCount == sample.recordOffsets.count - strings)
        #expect(everything.eventCount == everything.records.count)
        #expect(try Trace(contentsOf: sample.url, detail: .liveEntities).eventCount == everything.eventCount)
    }

    @Test("A corrupt record stops reading there with a warning, keeping what came before")
    func corrupt() throws {
        let sample = try sampleLog()
        var bytes = sample.bytes
        let broken = sample.recordOffsets[4]
        bytes[broken] = 3
        bytes[broken + 1] = 0
        bytes[broken + 2] = 0
        bytes[broken + 3] = 0
        let url = try write(bytes)
        let trace = try Trace(contentsOf: url)
        #expect(trace.warnings.count == 2, "the corrupt record, and the end record not read")
        #expect(trace.warnings[0].contains("corrupt record at byte offset \(broken) (size 3)"))
        #expect(!trace.records.isEmpty)
    }

    @Test("Record kinds from a newer minor version are skipped")
    func unknownKinds() throws {
        let sample = try sampleLog()
        var bytes = sample.bytes
        // Records of several threads interleave in the file: find the end record by its kind.
        let end = try #require(sample.recordOffsets.first { bytes[$0 + 4] == 13 })
        bytes[end + 4] = 200
        let trace = try Trace(contentsOf: try write(bytes))
        #expect(trace.warnings.count == 1 && trace.warnings[0].contains("has no end record"), "\(trace.warnings)")
        #expect(!trace.isComplete, "the end record was the one made unknown")
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

    @Test("A log from another major version, the pre-release format 1 included, is refused with the versions named", arguments: [1, 3])
    func unsupportedVersion(major: UInt8) throws {
        var bytes = try sampleLog().bytes
        bytes[8] = major
        bytes[10] = 4
        let url = try write(bytes)
        #expect(throws: TraceReadError.unsupportedVersion(path: url.path, major: UInt16(major), minor: 4)) { try Trace(contentsOf: url) }
        #expect("\(TraceReadError.unsupportedVersion(path: "t.sslog", major: UInt16(major), minor: 4))"
            == "t.sslog uses event log format \(major).4; this SignalScope reads format 2.x")
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

    /// The records of a log, as (offset, size, kind, thread).
    private func records(_ bytes: [UInt8]) -> [(offset: Int, size: Int, kind: UInt8, thread: UInt32)] {
        var found: [(Int, Int, UInt8, UInt32)] = []
        var offset = EventLogFormat.headerSize
        while offset + EventLogFormat.prefixSize <= bytes.count {
            let load = { (at: Int) in (0..<4).reduce(0) { $0 | UInt32(bytes[offset + at + $1]) << (8 * UInt32($1)) } }
            let size = Int(load(0))
            found.append((offset, size, bytes[offset + 4], load(8)))
            offset += size
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
        var reordered = Array(written[0..<EventLogFormat.headerSize])
        for record in all where record.thread != otherThread { reordered += written[record.offset..<(record.offset + record.size)] }
        for record in all where record.thread == otherThread { reordered += written[record.offset..<(record.offset + record.size)] }
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
        let endAt = try #require(sample.recordOffsets.last { sample.bytes[$0 + 4] == EndRecord.kind })
        let trace = try Trace(contentsOf: try write(Array(sample.bytes[..<endAt])))
        #expect(!trace.isComplete)
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
        #expect(!trace.isComplete)
        #expect(trace.records.count > 1_000, "buffers were flushed while the process ran")
        #expect(!trace.heap.hasSnapshot)
        #expect(trace.analyze().limitations.first?.hasPrefix("the trace has no closing heap snapshot") == true)
        // The log has no end record; a kill that lands inside a write also cuts its last
        // record short. Nothing else may be wrong with it.
        #expect(trace.warnings.contains { $0.contains("has no end record") })
        #expect(trace.warnings.allSatisfy { $0.contains("has no end record") || $0.contains("truncated record") }, "\(trace.warnings)")
    }
}
