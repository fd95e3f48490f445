import Synchronization

/// The lock an object guards its state with, the state being an ordinary stored property
/// of the object beside it:
///
/// ```swift
/// private let lock = StateLock()
/// @exclusivity(unchecked) private var state = SubjectState()   // guarded by `lock`
/// lock.withLock(&state) { $0.admit(...) }
/// ```
///
/// Why not a `Mutex<State>` (the toolchain's, which this wraps): a `Mutex` is noncopyable,
/// and Swift's reflection metadata cannot describe a noncopyable stored property (its field
/// record answers `()`), so the tracer's heap walk could not see the references the runtime
/// keeps under a lock: a subject's subscribers, a disposable's children. Beside the lock,
/// the state is a field like any other. (`@exclusivity(unchecked)`: the lock, not the
/// runtime's dynamic exclusivity checks, serializes access.)
///
/// Signal values need not be `Sendable` (as in RAC, the runtime's contract is to serialize
/// them, not to require it), so Swift's region checker rejects moving them in and out of a
/// lock's closure. The lock still guards every access; this type only tells the checker so,
/// in one place.
struct StateLock: ~Copyable, @unchecked Sendable {
    private let mutex = Mutex(())

    init() {}

    /// Runs `body` on `state` with the lock held.
    borrowing func withLock<State, Result>(_ state: inout State, _ body: (inout State) throws -> Result) rethrows -> Result {
        try mutex.withLock { _ in UncheckedSendable(try body(&state)) }.value
    }
}

/// State guarded by a lock, in an object of its own: for state an operator's closures
/// share (one per subscription), where a stored property beside a ``StateLock`` is not
/// available.
final class Locked<State>: @unchecked Sendable {
    private let lock = StateLock()
    @exclusivity(unchecked) private var state: State

    init(_ initial: State) {
        state = initial
    }

    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try lock.withLock(&state, body)
    }
}
