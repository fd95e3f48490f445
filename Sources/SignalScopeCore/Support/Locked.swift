import Synchronization

/// A `Mutex` around state that holds user values.
///
/// Signal values need not be `Sendable` (as in RAC, the runtime's contract is to serialize
/// them, not to require it), so Swift's region checker rejects moving them in and out of
/// `Mutex.withLock`. The mutex still guards every access; this wrapper only tells the
/// checker so, in one place.
struct Locked<State>: ~Copyable, @unchecked Sendable {
    private let mutex: Mutex<UncheckedSendable<State>>

    init(_ initial: State) {
        mutex = Mutex(UncheckedSendable(initial))
    }

    borrowing func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try mutex.withLock { box in UncheckedSendable(try body(&box.value)) }.value
    }
}
