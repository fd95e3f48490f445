import Synchronization
#if SIGNALSCOPE_TSAN
import Glibc
#endif

/// The lock an object guards its state with, the state being an ordinary stored property
/// of the object beside it:
///
/// ```swift
/// private let lock = StateLock()
/// @exclusivity(unchecked) private var state = SubjectState()   // guarded by `lock`
/// lock.withLock { state.admit(...) }
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
///
/// The state is touched only inside the closure, never passed `inout` to the lock: an
/// `inout` argument's access begins where the call is written, before the lock is taken,
/// and ThreadSanitizer rightly counts it as an access outside the lock.
///
/// Built with `-DSIGNALSCOPE_TSAN` (the ThreadSanitizer run of `make ci`), it is a pthread
/// mutex, whose lock and unlock ThreadSanitizer intercepts: it does not see the toolchain's
/// `Mutex`, which waits on futexes itself, so every access under one would read as a race
/// and the real races would drown among them (docs/semantics.md, "What ThreadSanitizer
/// checks"). Every lock of the runtime, the tracer and the heap walk is this one, or
/// ``LockedValue`` or ``Locked``, built on it; the command-line tool, which the
/// ThreadSanitizer run does not build, uses the toolchain's `Mutex`, and so does the
/// OpenCombine adapter for its own state (its tables of publisher types are
/// ``LockedValue``s, for their ``LockedValue/value(for:orFind:)``).
///
/// Usable from inlinable code: ``LockedValue``, which is inlinable, is built on it for
/// ThreadSanitizer.
@usableFromInline
package struct StateLock: ~Copyable, @unchecked Sendable {
    #if SIGNALSCOPE_TSAN
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

    @inlinable package init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the lock held.
    @inlinable package borrowing func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
    #else
    @usableFromInline let mutex = Mutex(())

    @inlinable package init() {}

    /// Runs `body` with the lock held.
    @inlinable package borrowing func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        try mutex.withLock { _ throws(Failure) in UncheckedSendable(try body()) }.value
    }
    #endif
}

/// A value only reachable under a lock: the package's stand-in for the toolchain's `Mutex`
/// (which it is, unless built for ThreadSanitizer; see ``StateLock``).
///
/// Public behind an SPI (`@_spi(Locking) import SignalScope`) and inlinable, so that the
/// tracer's modules specialize it for their values: a `package` declaration's body is not
/// inlined into another module, and called unspecialized, every call looked up the generic
/// metadata of its `Mutex` and boxes (some 450 instructions each, over half of what tracing
/// a subscription cost).
@_spi(Locking) public struct LockedValue<Value>: ~Copyable, @unchecked Sendable {
    #if SIGNALSCOPE_TSAN
    @usableFromInline let lock = StateLock()
    @usableFromInline let value: UnsafeMutablePointer<Value>

    @inlinable public init(_ initial: Value) {
        value = .allocate(capacity: 1)
        value.initialize(to: initial)
    }

    deinit {
        value.deinitialize(count: 1)
        value.deallocate()
    }

    /// Runs `body` on the value with the lock held.
    @inlinable public borrowing func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        try lock.withLock { () throws(Failure) in try body(&value.pointee) }
    }
    #else
    @usableFromInline let mutex: Mutex<UncheckedSendable<Value>>

    @inlinable public init(_ initial: Value) {
        mutex = Mutex(UncheckedSendable(initial))
    }

    /// Runs `body` on the value with the lock held.
    @inlinable public borrowing func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        try mutex.withLock { box throws(Failure) in UncheckedSendable(try body(&box.value)) }.value
    }
    #endif
}

extension LockedValue {
    /// The value kept for `key`, found and kept the first time it is asked for: a table of
    /// what never changes once found (what the code at an address is, a type's layout).
    /// `find` runs outside the lock, so it may be slow or take other locks; two threads asking
    /// at once may both find it, and either answer is kept.
    @inlinable public borrowing func value<Key: Hashable, Found>(for key: Key, orFind find: () -> Found) -> Found
    where Value == [Key: Found] {
        if let known = withLock({ $0[key] }) { return known }
        let found = find()
        withLock { $0[key] = found }
        return found
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
        try lock.withLock { try body(&state) }
    }
}
