import Glibc
import Synchronization

/// What one thread keeps for tracing: its buffer for each recording it records into.
///
/// Reached through one process-wide thread-local slot, so looking it up on the hot path
/// is a `pthread_getspecific` and a short scan (several recordings at once are rare, and
/// each keeps its own buffer so they never thrash). A buffer whose recording has finished
/// is dropped the next time the thread records; the writer keeps it until drained. When the
/// thread exits, its buffers are marked retired.
final class TracingThread {
    // Only the owning thread touches its TracingThread (it is reached through a
    // thread-local slot), so no two accesses can overlap: the dynamic exclusivity check
    // Swift would make on every record is left out.
    @exclusivity(unchecked) private var buffers: [(recording: UInt64, buffer: ThreadBuffer)] = []

    deinit {
        for entry in buffers { entry.buffer.isRetired.store(true, ordering: .releasing) }
    }

    /// This thread's buffer for `recording`, made (and registered by `make`) on first use.
    /// The buffer of the recording this thread recorded into last, unretained: `buffers`
    /// owns it. Looking it up costs no retain and no release, which on the path of every
    /// record is a fifth of its cost.
    @exclusivity(unchecked) private var lastUsed: (recording: UInt64, buffer: Unmanaged<ThreadBuffer>)?

    /// Runs `body` with this thread's buffer for `recording` (see
    /// ``buffer(for:isFinished:make:)``), without retaining it.
    func withBuffer<Result>(
        for recording: UInt64, isFinished: (UInt64) -> Bool, make: () -> ThreadBuffer, _ body: (ThreadBuffer) -> Result
    ) -> Result {
        if let lastUsed, lastUsed.recording == recording {
            return lastUsed.buffer._withUnsafeGuaranteedRef(body)
        }
        let buffer = buffer(for: recording, isFinished: isFinished, make: make)
        lastUsed = (recording, Unmanaged.passUnretained(buffer))
        return body(buffer)
    }

    func buffer(for recording: UInt64, isFinished: (UInt64) -> Bool, make: () -> ThreadBuffer) -> ThreadBuffer {
        for entry in buffers where entry.recording == recording { return entry.buffer }
        lastUsed = nil
        buffers.removeAll { entry in
            guard isFinished(entry.recording) else { return false }
            entry.buffer.isRetired.store(true, ordering: .releasing)
            return true
        }
        let buffer = make()
        buffers.append((recording, buffer))
        return buffer
    }

    /// The calling thread's state, created on first use.
    /// Runs `body` with the calling thread's TracingThread, without retaining it.
    static func withCurrent<Result>(_ body: (TracingThread) -> Result) -> Result {
        if let existing = pthread_getspecific(slot) {
            return Unmanaged<TracingThread>.fromOpaque(existing)._withUnsafeGuaranteedRef(body)
        }
        return body(current)
    }

    static var current: TracingThread {
        if let existing = pthread_getspecific(slot) {
            return Unmanaged<TracingThread>.fromOpaque(existing).takeUnretainedValue()
        }
        let created = TracingThread()
        pthread_setspecific(slot, Unmanaged.passRetained(created).toOpaque())
        return created
    }

    private static let slot: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { state in
            guard let state else { return }
            Unmanaged<TracingThread>.fromOpaque(state).release()
        }
        precondition(status == 0, "SignalScope: pthread_key_create failed with \(status)")
        return key
    }()
}
