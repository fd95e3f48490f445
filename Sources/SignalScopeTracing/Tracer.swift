import CTracingSupport
import Foundation
@_spi(Locking) import SignalScope
import Synchronization
// The heap walk's public vocabulary (`HeapModules`, `HeapWalkLimits`, the categories) is
// part of the tracer's API: what `TraceHeap` says and what adapters declare.
@_exported import SignalScopeHeap

/// SignalScope's entry points for recording what signals do: `Tracer.record { }` in tests,
/// `startRecording(to:)` and `stopRecording()` around a whole run.
public enum Tracer {
    /// Records what `body` does with signals, in memory: the signals, subscriptions and
    /// objects it makes, what they do, and the deliveries and scheduled actions its events
    /// lead to on any thread; then the heap as it is when `body` returns.
    ///
    /// ```swift
    /// let trace = Tracer.record { runScenario() }
    /// ```
    ///
    /// The trace is about `body`'s own work: what the thread running it makes, and what that
    /// causes through SignalScope's schedulers and subjects. Tests running alongside on
    /// other threads are not in it, so a test can judge its trace alone. Work `body` hands to
    /// threads or queues of its own, outside SignalScope's schedulers, is not attributed to
    /// it (record the process with ``startRecording(to:values:heapLimits:)`` for that).
    /// Subscriptions made inside `body` keep reporting until it returns; what they do
    /// afterwards is not recorded.
    /// - Parameters:
    ///   - values: Whether `next` records keep a summary of each value
    ///     (`String(describing:)`, at most 80 characters).
    ///   - heapLimits: How far the closing heap walk may go (``TraceHeap/Limits``).
    public static func record(
        values: Bool = false, heapLimits: TraceHeap.Limits = .standard, _ body: () throws -> Void
    ) rethrows -> Trace {
        try recordKeepingLog(values: values, heapLimits: heapLimits, body).trace
    }

    /// ``record(values:heapLimits:_:)``, with the event log the trace was read from: for a
    /// leak check that keeps it as evidence when it fails.
    package static func recordKeepingLog(
        values: Bool = false, heapLimits: TraceHeap.Limits = .standard, _ body: () throws -> Void
    ) rethrows -> (trace: Trace, log: [UInt8]) {
        let recording = MemoryRecording(values: values, heapLimits: heapLimits)
        defer { recording.uninstall() }
        try RecordedCode.run(as: recording.recorder.identity, body)
        return recording.finish()
    }

    /// Records what the `async` `body` does with signals, in memory: its own task's work
    /// (on whatever threads it resumes) and that of the tasks it starts that make signals,
    /// and what their events lead to; as ``record(values:heapLimits:_:)`` does for a
    /// synchronous body.
    public static func record(
        values: Bool = false, heapLimits: TraceHeap.Limits = .standard,
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Void
    ) async rethrows -> Trace {
        try await recordKeepingLog(values: values, heapLimits: heapLimits, body).trace
    }

    /// The `async` ``recordKeepingLog(values:heapLimits:_:)``.
    package static func recordKeepingLog(
        values: Bool = false, heapLimits: TraceHeap.Limits = .standard,
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Void
    ) async rethrows -> (trace: Trace, log: [UInt8]) {
        let recording = MemoryRecording(values: values, heapLimits: heapLimits)
        defer { recording.uninstall() }
        try await RecordedCode.$recordings.withValue(RecordedCode.recordings + [recording.recorder.identity]) {
            recording.recorder.noteRecordedTask()
            try await body()
        }
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
            let path = url.path
            // A wrapping command (`signalscope check`, `live`) says where its user will see it.
            let hint = ProcessInfo.processInfo.environment["SIGNALSCOPE_ANNOUNCE_HINT"] ?? "see it with: signalscope report \(path)"
            let recorder = try Recorder(
                sink: FileSink(path: path), recordsValues: values, heapLimits: heapLimits,
                announce: { line in try? FileHandle.standardError.write(contentsOf: Data("\(line); \(hint)\n".utf8)) })
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

    /// Says that `object` should be freed within `within` from now, because of `reason`
    /// (a screen dismissed, a request finished), as a leak finder that watches objects
    /// lets a program say: if it is still alive then, the recording takes a heap snapshot
    /// at that moment and proves what holds it, and the analysis reports it under
    /// `retained-after-release` at this line; if it is freed later in the run, the report
    /// says it was retained, then released.
    ///
    /// ```swift
    /// func dismiss() {
    ///     navigation.pop()
    ///     Tracer.expectDeallocation(of: screen, because: "ProfileScreen dismissed")
    /// }
    /// ```
    ///
    /// Costs nothing when nothing records the code calling it; otherwise one weak reference
    /// and one timer. A file recording also prints one line on standard error when the
    /// deadline passes, naming the trace to open. A deadline that has not passed when the
    /// recording stops is not judged.
    public static func expectDeallocation(
        of object: AnyObject, within: Duration = .seconds(2), because reason: String,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) {
        for case let recorder as Recorder in Instrumentation.watchingHooks {
            recorder.expectDeallocation(
                of: object, within: within, reason: reason, site: SourceLocation(fileID: file, line: line, function: function))
        }
    }

    /// Marks a point of the run that the program reaches again and again (a screen closed, a
    /// request finished, one pass of a scenario done): the recording takes a heap snapshot
    /// now and keeps what was alive, so that the analysis can compare the marks of one label
    /// made at one line and report what grows at every one of them after the first
    /// (`grows-per-repetition`, with the chain of strong references that holds the newest
    /// instance at the end).
    ///
    /// ```swift
    /// for _ in 0..<5 {
    ///     coordinator.showProfile()
    ///     coordinator.dismissProfile()
    ///     Tracer.checkpoint("profile closed")
    /// }
    /// ```
    ///
    /// Costs nothing when nothing records the code calling it; otherwise a heap snapshot (a
    /// fork and a walk of the heap: milliseconds on a small heap, a second or more on a large
    /// one), taken one at a time with those that judge watched objects. Mark a point where
    /// the scenario has settled: what is still being torn down counts as alive.
    public static func checkpoint(
        _ label: String, file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) {
        checkpoint(label, at: TraceSite(file: "\(file)", line: Int(clamping: line), function: "\(function)"))
    }

    /// ``checkpoint(_:file:line:function:)`` at a site given as data: a growth check marks
    /// each repetition at the test's own line.
    package static func checkpoint(_ label: String, at site: TraceSite) {
        for case let recorder as Recorder in Instrumentation.watchingHooks { recorder.checkpoint(label, site: site) }
    }

    /// Says that `object` must have been freed when the recording of the code calling this
    /// ends (a leak-check helper's body returning): judged by the closing snapshot.
    package static func expectDeallocationWhenRecordingEnds(
        of object: AnyObject, because reason: String, site: SourceLocation
    ) {
        for case let recorder as Recorder in Instrumentation.watchingHooks {
            recorder.expectDeallocation(of: object, within: nil, reason: reason, site: site)
        }
    }

    /// Whether a file recording is running.
    public static var isRecording: Bool { fileRecording.withLock { $0 != nil } }

    private static let fileRecording = LockedValue<Recorder?>(nil)
}

/// A recording into memory, installed from its start until the caller uninstalls it (after
/// `finish()`, or when the recorded code throws).
private struct MemoryRecording {
    let sink = MemorySink()
    let recorder: Recorder

    init(values: Bool, heapLimits: TraceHeap.Limits) {
        // A memory sink cannot fail to open or write, so neither can this recorder.
        recorder = try! Recorder(sink: sink, recordsValues: values, heapLimits: heapLimits, scope: .code)
        Instrumentation.install(recorder)
    }

    /// Uninstalls the recorder, whether it finished or the recorded code threw.
    func uninstall() {
        Instrumentation.uninstall(recorder)
        recorder.stopNotingAllocations()
    }

    /// Stops recording and reads back the trace, from the log it returns beside it.
    func finish() -> (trace: Trace, log: [UInt8]) {
        try! recorder.finish()
        let log = sink.bytes
        return (try! Trace(data: Data(log), path: "memory", detail: .everything), log)
    }
}
