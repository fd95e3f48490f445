import CTracingSupport
import Glibc
import Synchronization

/// What one thread keeps for tracing: its buffer for each recording it records into.
///
/// Reached through a thread-local word, so looking it up on the hot path is a load and a
/// comparison with the recording it recorded into last (several recordings at once are
/// rare, and each keeps its own buffer so they never thrash). A buffer whose recording has finished
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

    /// The buffer of the recording this thread recorded into last, unretained: `buffers`
    /// owns it. Looking it up costs no retain and no release, which on the path of every
    /// record is a fifth of its cost.
    @exclusivity(unchecked) private var lastUsed: (recording: UInt64, buffer: Unmanaged<ThreadBuffer>)?

    /// The calling thread's buffer for `recording`, made (and registered by `make`) on first
    /// use, unretained: the thread's state keeps it until the thread next looks up a buffer
    /// of another recording, so use it before then, or retain it.
    ///
    /// Inlined, with no closure on the way, because every record takes this path: the
    /// closures of a `withCurrent { withBuffer { } }` lookup stayed out of line, each layer a
    /// call with its own prologue (about 65 instructions a record).
    @inline(__always)
    static func buffer(for recording: UInt64, isFinished: (UInt64) -> Bool, make: () -> ThreadBuffer) -> Unmanaged<ThreadBuffer> {
        if let existing = signalscope_tracing_thread(),
            let lastUsed = Unmanaged<TracingThread>.fromOpaque(existing)._withUnsafeGuaranteedRef({ $0.lastUsed }),
            lastUsed.recording == recording
        {
            return lastUsed.buffer
        }
        return current.buffer(for: recording, isFinished: isFinished, make: make)
    }

    /// ``buffer(for:isFinished:make:)`` when it is not the last one used: found among the
    /// thread's buffers, dropping those of finished recordings, or made.
    @inline(never)
    private func buffer(for recording: UInt64, isFinished: (UInt64) -> Bool, make: () -> ThreadBuffer) -> Unmanaged<ThreadBuffer> {
        let buffer = buffers.first { $0.recording == recording }?.buffer ?? {
            buffers.removeAll { entry in
                guard isFinished(entry.recording) else { return false }
                entry.buffer.isRetired.store(true, ordering: .releasing)
                return true
            }
            let buffer = make()
            buffers.append((recording, buffer))
            return buffer
        }()
        let unmanaged = Unmanaged.passUnretained(buffer)
        lastUsed = (recording, unmanaged)
        return unmanaged
    }

    /// The calling thread's state, created on first use.
    private static var current: TracingThread {
        if let existing = signalscope_tracing_thread() {
            return Unmanaged<TracingThread>.fromOpaque(existing).takeUnretainedValue()
        }
        let created = TracingThread()
        let retained = Unmanaged.passRetained(created).toOpaque()
        signalscope_set_tracing_thread(retained)
        // The key only releases the state when the thread exits: a thread-local word has no
        // destructor.
        pthread_setspecific(exitKey, retained)
        return created
    }

    private static let exitKey: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { state in
            guard let state else { return }
            // Runs on the exiting thread: what it records later (another key's destructor
            // sending a value) makes a new state rather than reaching this one.
            signalscope_set_tracing_thread(nil)
            Unmanaged<TracingThread>.fromOpaque(state).release()
        }
        precondition(status == 0, "SignalScope: pthread_key_create failed with \(status)")
        return key
    }()
}
