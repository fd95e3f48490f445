import Foundation
import SignalScope
import Synchronization

/// SignalScope's entry points for recording what signals do: `Tracer.record { }` in tests,
/// `startRecording(to:)` and `stopRecording()` around a whole run.
public enum Tracer {
    /// Records everything the signals created and subscribed in `body` do, in memory.
    ///
    /// ```swift
    /// let trace = Tracer.record { runScenario() }
    /// ```
    ///
    /// Subscriptions made inside `body` keep reporting until it returns; what they do
    /// afterwards is not recorded. Other recordings (a file recording, another `record` on
    /// another thread) go on meanwhile and see the same events.
    /// - Parameters:
    ///   - values: Whether `next` records keep a summary of each value
    ///     (`String(describing:)`, at most 80 characters).
    ///   - heapLimits: How far the closing heap walk may go (``TraceHeap/Limits``).
    public static func record(
        values: Bool = false, heapLimits: TraceHeap.Limits = .standard, _ body: () throws -> Void
    ) rethrows -> Trace {
        try recordOnCallingThread(values: values, heapLimits: heapLimits, body).trace
    }

    /// Records everything signals do while the `async` `body` runs, on every thread (an
    /// `async` body may resume on any), in memory.
    public static func record(
        values: Bool = false, heapLimits: TraceHeap.Limits = .standard,
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Void
    ) async rethrows -> Trace {
        let recording = MemoryRecording(values: values, heapLimits: heapLimits)
        defer { Instrumentation.uninstall(recording.recorder) }
        try await body()
        return recording.finish().trace
    }

    /// Like ``record(values:heapLimits:_:)``, and also the part of the trace made on the
    /// calling thread: what a test's own code created, apart from what tests running
    /// alongside did.
    package static func recordOnCallingThread(
        values: Bool = false, heapLimits: TraceHeap.Limits = .standard, _ body: () throws -> Void
    ) rethrows -> (trace: Trace, callingThread: Trace) {
        let recording = MemoryRecording(values: values, heapLimits: heapLimits)
        defer { Instrumentation.uninstall(recording.recorder) }
        try body()
        return recording.finish()
    }

    /// Starts recording to an event log file, until ``stopRecording()`` or the end of the
    /// process.
    ///
    /// - Parameters:
    ///   - values: Whether `next` records keep a summary of each value.
    ///   - heapLimits: How far the closing heap walk may go (``TraceHeap/Limits``).
    /// - Throws: ``RecordingError/cannotCreate(path:reason:)`` when the file cannot be
    ///   created; ``RecordingError/alreadyRecording`` when a file recording is running.
    public static func startRecording(to url: URL, values: Bool = false, heapLimits: TraceHeap.Limits = .standard) throws {
        try fileRecording.withLock { current in
            guard current == nil else { throw RecordingError.alreadyRecording }
            let recorder = try Recorder(sink: FileSink(path: url.path), recordsValues: values, heapLimits: heapLimits)
            Instrumentation.install(recorder)
            current = recorder
        }
    }

    /// Stops the file recording, if one is running, and writes everything out.
    /// - Throws: ``RecordingError/cannotWrite(path:reason:)`` if writing failed.
    public static func stopRecording() throws {
        guard let recorder = fileRecording.withLock({ current in defer { current = nil }; return current }) else {
            return
        }
        Instrumentation.uninstall(recorder)
        try recorder.finish()
    }

    /// Whether a file recording is running.
    public static var isRecording: Bool { fileRecording.withLock { $0 != nil } }

    private static let fileRecording = Mutex<Recorder?>(nil)
}

/// A recording into memory, installed from its start until the caller uninstalls it (after
/// `finish()`, or when the recorded code throws).
private struct MemoryRecording {
    let sink = MemorySink()
    let recorder: Recorder

    init(values: Bool, heapLimits: TraceHeap.Limits) {
        // A memory sink cannot fail to open or write, so neither can this recorder.
        recorder = try! Recorder(sink: sink, recordsValues: values, heapLimits: heapLimits)
        Instrumentation.install(recorder)
    }

    /// Stops recording and reads back the whole trace and the calling thread's part of it.
    func finish() -> (trace: Trace, callingThread: Trace) {
        let thread = recorder.callingThreadID
        try! recorder.finish()
        let trace = try! Trace(data: Data(sink.bytes), path: "memory", detail: .everything)
        return (trace, thread.map { trace.restricted(toThread: $0) } ?? trace.restricted { _ in false })
    }
}
