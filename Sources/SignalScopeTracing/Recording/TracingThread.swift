#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// What one thread keeps for tracing: its buffer for the current recording.
///
/// Reached through one process-wide thread-local slot, so looking it up on the hot path
/// is a `pthread_getspecific`. A thread that records for a new recording replaces its
/// buffer; the old one lives on in its recording's writer until drained. When the thread
/// exits, its buffer is marked retired.
final class TracingThread {
    var recording: UInt64 = 0
    var buffer: ThreadBuffer?

    deinit {
        buffer?.isRetired.store(true, ordering: .releasing)
    }

    /// The calling thread's state, created on first use.
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
