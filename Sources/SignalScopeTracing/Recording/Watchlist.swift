import Foundation
@_spi(Locking) import SignalScope

/// The objects a recording was told should be freed by a deadline
/// (`Tracer.expectDeallocation`), held weakly, and the pacing of the mid-run snapshots that
/// judge them.
///
/// Deadlines are judged in batches: when one passes, every watched object whose deadline
/// has passed by then is judged from one snapshot; a snapshot is taken at most one at a time,
/// no sooner than ``Pacing/gap(after:)`` after the last, and at most ``Pacing/limit`` a run;
/// what no mid-run snapshot judged, the closing snapshot does. 2,000 objects watched at once
/// used to take 2,000 snapshots one after another, and a program could not exit behind them.
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

    /// When the next mid-run snapshot may be taken, and how many have been.
    struct Pacing {
        /// Mid-run snapshots a run takes at most.
        static let limit = 20
        var taken = 0
        var nextAllowed: ContinuousClock.Instant?
        /// Whether a check is already scheduled for `nextAllowed`.
        var isCheckScheduled = false
        /// Objects announced one by one so far (``Recorder``, at most ten a run).
        var announced = 0

        /// The time to leave after a snapshot that took `cost`: a tenth of a second, or twice
        /// what it took, so that snapshots never take more than a third of the program's time.
        static func gap(after cost: Duration) -> Duration { max(.milliseconds(100), cost * 2) }
    }

    private let entries = LockedValue<[UInt64: Entry]>([:])
    private let counter = LockedValue<UInt64>(0)
    let pacing = LockedValue(Pacing())
    /// Runs the deadlines, one at a time, off the program's threads.
    private let queue = DispatchQueue(label: "signalscope.watchlist")
    /// Set once the recording writes its closing snapshot: deadlines that pass later are
    /// the closing snapshot's to judge.
    private let isClosed = LockedValue(false)

    /// Watches `object`; `deadlinesPassed` runs on the watchlist's queue once `within` has
    /// passed (`nil`: never; the object is judged when the recording ends).
    func watch(
        _ object: AnyObject, within: Duration?, reason: String, site: SourceLocation,
        deadlinesPassed: @escaping @Sendable () -> Void
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
        check(after: within, deadlinesPassed)
    }

    /// Runs `deadlinesPassed` on the queue after `delay`, unless the watchlist is closed by then.
    func check(after delay: Duration, _ deadlinesPassed: @escaping @Sendable () -> Void) {
        queue.asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: delay.wholeNanoseconds))) { [weak self] in
            guard let self, !self.isClosed.withLock({ $0 }) else { return }
            deadlinesPassed()
        }
    }

    /// The entries not yet reported whose deadline is `now` or earlier, by id.
    func due(at now: ContinuousClock.Instant) -> [Entry] {
        entries.withLock { entries in
            entries.values.filter { !$0.wasReported && $0.deadline.map { $0 <= now } == true }.sorted { $0.id < $1.id }
        }
    }

    /// Notes that `id`'s object was reported retained.
    func markReported(_ id: UInt64) { entries.withLock { $0[id]?.wasReported = true } }

    /// Stops watching `id`.
    func forget(_ id: UInt64) { entries.withLock { _ = $0.removeValue(forKey: id) } }

    /// Every entry, by id.
    var all: [Entry] { entries.withLock { $0.values.sorted { $0.id < $1.id } } }

    /// Runs `body` (a checkpoint's snapshot) on the queue, so that it is taken one at a time
    /// with the deadlines' snapshots; `nil` once the watchlist is closed: the closing snapshot
    /// is the recording's last.
    func exclusively<Result>(_ body: () -> Result) -> Result? {
        queue.sync { isClosed.withLock { $0 } ? nil : body() }
    }

    /// Stops handling deadlines: checks still queued do nothing, and one being handled now
    /// is waited for (at most one snapshot).
    func close() {
        isClosed.withLock { $0 = true }
        queue.sync {}
    }
}

extension Duration {
    /// The duration to the nearest millisecond, as messages give how late a judgement came
    /// ("0.318 seconds", never "0.318069157 seconds").
    var roundedToMilliseconds: Duration {
        .milliseconds(Int64((Double(wholeNanoseconds) / 1_000_000).rounded()))
    }

    /// The duration in whole nanoseconds, 0 for a negative one, saturating.
    var wholeNanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : whole &+ UInt64(attoseconds / 1_000_000_000)
    }
}
