import Foundation
@_spi(Locking) import SignalScope

/// The objects a recording was told should be freed by a deadline
/// (`Tracer.expectDeallocation`), held weakly, each checked when its deadline passes.
final class Watchlist: Sendable {
    struct Entry: Sendable {
        let id: UInt64
        let object: WeakReference
        /// Where the object was when it was watched (it cannot move while alive).
        let address: UInt
        /// Its type, as the runtime names it.
        let typeName: String
        let reason: String
        let site: SourceLocation
        /// `nil`: judged when the recording ends.
        let within: Duration?
        let deadline: ContinuousClock.Instant?
        /// Whether a `retained` record was written for it.
        var wasReported = false
    }

    private let entries = LockedValue<[UInt64: Entry]>([:])
    private let counter = LockedValue<UInt64>(0)
    /// Runs the deadlines, one at a time, off the program's threads.
    private let queue = DispatchQueue(label: "signalscope.watchlist")
    /// Set once the recording writes its closing snapshot: deadlines that pass later are
    /// the closing snapshot's to judge.
    private let isClosed = LockedValue(false)

    /// Watches `object`; `expired` runs on the watchlist's queue once `within` has passed
    /// (`nil`: never; the object is judged when the recording ends).
    func watch(
        _ object: AnyObject, within: Duration?, reason: String, site: SourceLocation,
        expired: @escaping @Sendable (UInt64) -> Void
    ) {
        let id = counter.withLock { count in
            count += 1
            return count
        }
        let entry = Entry(
            id: id, object: WeakReference(object), address: UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque()),
            typeName: String(reflecting: type(of: object)), reason: reason, site: site, within: within, deadline: within.map { .now + $0 })
        entries.withLock { $0[id] = entry }
        guard let within else { return }
        queue.asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: within.wholeNanoseconds))) { [weak self] in
            guard let self, !self.isClosed.withLock({ $0 }) else { return }
            expired(id)
        }
    }

    /// The entry `id`, if it is still watched.
    func entry(_ id: UInt64) -> Entry? { entries.withLock { $0[id] } }

    /// Notes that `id`'s object was reported retained.
    func markReported(_ id: UInt64) { entries.withLock { $0[id]?.wasReported = true } }

    /// Stops watching `id`.
    func forget(_ id: UInt64) { entries.withLock { _ = $0.removeValue(forKey: id) } }

    /// Every entry, by id.
    var all: [Entry] { entries.withLock { $0.values.sorted { $0.id < $1.id } } }

    /// Stops handling deadlines, once any being handled now is done.
    func close() {
        queue.sync { isClosed.withLock { $0 = true } }
    }
}

extension Duration {
    /// The duration in whole nanoseconds, 0 for a negative one, saturating.
    var wholeNanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : whole &+ UInt64(attoseconds / 1_000_000_000)
    }
}
