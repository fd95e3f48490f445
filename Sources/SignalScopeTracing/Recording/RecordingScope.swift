import CTracingSupport
import Synchronization
@_spi(Locking) import SignalScope

/// Whose work a recording is about.
///
/// A recording of the whole process (a file recording, `signalscope check`) is about every
/// thread. A recording of some code (`Tracer.record { }`, the leak-check helpers) is about
/// what that code does: it watches (rule I10 of `docs/semantics.md`) the body under its
/// task-local binding (the body's thread while it runs, its task, and the tasks that inherit
/// the binding), and whatever runs during a delivery to a subscription it watches or in an
/// action that code scheduled, on any thread. Tests running alongside, on other threads and
/// tasks, are not part of it: their nodes and subscriptions never report to it.
enum RecordingScope: Sendable {
    /// Every thread's work.
    case process
    /// The work of a body.
    case code
}

/// The recordings whose bodies are running, bound around each body: code under the binding
/// is that recording's code, whatever thread it runs on, and the tasks the body starts
/// inherit it.
enum RecordedCode {
    @TaskLocal static var recordings: [UInt64] = []

    /// Runs `body` as the code of `recording`: under its task-local binding, and with the
    /// thread marked as running its code, so that what the thread allocates meanwhile is
    /// attributed to it.
    static func run<Result>(as recording: UInt64, _ body: () throws -> Result) rethrows -> Result {
        try $recordings.withValue(recordings + [recording]) {
            try CodeScopeMark.with(recording, body)
        }
    }
}

/// The thread's mark of whose recorded code it is running (a recording's identity, 0 for
/// none), kept by the allocation table's C code so that each allocation notes it.
enum CodeScopeMark {
    /// The mark of the tracer's own work, which is no program's.
    static let tracer = UInt64.max

    static var current: UInt64 { signalscope_code_scope_current() }

    static func with<Result>(_ recording: UInt64, _ body: () throws -> Result) rethrows -> Result {
        let previous = enter(recording)
        defer { enter(previous) }
        return try body()
    }

    /// Marks the thread as running `recording`'s code (``tracer``: the tracer's own, 0:
    /// none) until the next call; returns the mark it had, for the caller to restore.
    @discardableResult
    static func enter(_ recording: UInt64) -> UInt64 {
        signalscope_code_scope_enter(recording)
    }
}

/// The tasks that ran a recording's code, readable without a lock: a fixed list published
/// by a count (appended under a lock, which only a new task takes). The closing snapshot
/// attributes to the recorded code what these tasks allocated.
final class ScopeTasks: @unchecked Sendable {
    private static let capacity = 256
    private let tasks = UnsafeMutablePointer<UInt>.allocate(capacity: ScopeTasks.capacity)
    private let count = Atomic<Int>(0)
    private let adding = LockedValue(())

    deinit {
        tasks.deallocate()
    }

    /// Adds a task, once; beyond the capacity further tasks are not remembered (what they
    /// allocate outside signals is then not attributed to the recorded code).
    func add(_ task: UInt) {
        guard task != 0, !contains(task) else { return }
        adding.withLock { _ in
            let known = count.load(ordering: .relaxed)
            guard known < Self.capacity, !(0..<known).contains(where: { tasks[$0] == task }) else { return }
            tasks[known] = task
            count.store(known + 1, ordering: .releasing)
        }
    }

    func contains(_ task: UInt) -> Bool {
        let known = count.load(ordering: .acquiring)
        for index in 0..<known where tasks[index] == task { return true }
        return false
    }
}
