import Foundation

/// A scheduler with virtual time, for deterministic tests of time-based code
/// (RACTestScheduler).
///
/// Nothing runs until you move time on: ``advance(by:)`` and ``advance(to:)`` run every
/// action due by then in date order (actions due at the same time in the order they were
/// scheduled), and ``run()`` runs everything. `schedule(_:)` queues an action at the
/// current virtual time, so it runs on the next advance, even `advance(by: 0)`.
public final class TestScheduler: Scheduler, @unchecked Sendable {
    private struct Scheduled {
        let id: UInt64
        var date: Date
        let interval: TimeInterval?
        let action: ScheduledAction
    }

    private struct State {
        var now: Date
        var queue: [Scheduled] = []
        var nextID: UInt64 = 0

        mutating func insert(_ item: Scheduled) {
            // Keeps `queue` sorted by date, then by insertion.
            let index = queue.firstIndex { $0.date > item.date } ?? queue.endIndex
            queue.insert(item, at: index)
        }
    }

    private let lock = StateLock()
    @exclusivity(unchecked) private var state: State

    /// The most actions ``run()`` performs before concluding that a repeating action is
    /// still scheduled and can never let it finish.
    public static let runLimit = 1_000_000

    /// Creates a scheduler whose virtual clock starts at `start`.
    public init(start: Date = Date(timeIntervalSinceReferenceDate: 0)) {
        state = State(now: start)
        Instrumentation.current?.virtualTimeReached(start)
    }

    /// The virtual time.
    public var now: Date { lock.withLock { state.now } }

    /// Queues `action` to run at the current virtual time, when the scheduler next advances or runs.
    @discardableResult
    public func schedule(_ action: @escaping () -> Void) -> Disposable? {
        enqueue(at: nil, interval: nil, action)
    }

    /// Queues `action` to run when virtual time reaches `date`.
    @discardableResult
    public func schedule(after date: Date, _ action: @escaping () -> Void) -> Disposable? {
        enqueue(at: date, interval: nil, action)
    }

    /// Queues `action` to run when virtual time reaches `date`, then every `interval` virtual seconds (which must be positive), until disposed.
    @discardableResult
    public func schedule(after date: Date, interval: TimeInterval, _ action: @escaping () -> Void) -> Disposable? {
        Require.positive(interval, "A repeating interval")
        return enqueue(at: date, interval: interval, action)
    }

    /// Moves virtual time on by `interval` seconds (not negative), running every action
    /// due by then.
    public func advance(by interval: TimeInterval) {
        Require.nonNegative(interval, "TestScheduler.advance(by:) interval")
        advance(to: now.addingTimeInterval(interval))
    }

    /// Moves virtual time on to `date` (not earlier than ``now``), running every action due
    /// by then.
    public func advance(to date: Date) {
        Require.nonNegative(
            date.timeIntervalSince(now), "The time to advance a TestScheduler by (from \(now) to \(date))")
        while let action = takeDue(by: date) { perform(action) }
        lock.withLock { state.now = max(state.now, date) }
    }

    /// Runs every scheduled action, including those they schedule, moving virtual time to
    /// each one's date, until none is left.
    ///
    /// A repeating action that is never disposed would keep it going forever, so it stops
    /// with a precondition failure after ``runLimit`` actions.
    public func run() {
        var performed = 0
        while let action = takeDue(by: .distantFuture) {
            perform(action)
            performed += 1
            if performed >= Self.runLimit {
                Require.unsupported(
                    "TestScheduler.run() performed \(Self.runLimit) actions and more are still scheduled; "
                        + "a repeating action is probably never disposed. Use advance(by:) instead")
            }
        }
    }

    /// Runs an action, telling the hook it was scheduled under the virtual time it runs at,
    /// so that drawings of the run can place what it does in the test's time (asking the
    /// registry for the current hook would take its lock for every action).
    private func perform(_ action: ScheduledAction) {
        action.hook?.virtualTimeReached(now)
        action.run()
    }

    /// Queues an action; disposing the returned action cancels it (its queue entry is
    /// dropped when its time comes).
    private func enqueue(at date: Date?, interval: TimeInterval?, _ action: @escaping () -> Void) -> Disposable {
        let scheduled = ScheduledAction(action, repeats: interval != nil)
        lock.withLock {
            state.nextID += 1
            state.insert(Scheduled(id: state.nextID, date: date ?? state.now, interval: interval, action: scheduled))
        }
        return scheduled
    }

    /// Removes the first action due by `limit` that was not cancelled, moving the clock to
    /// its date; a repeating action goes back in the queue for its next date.
    private func takeDue(by limit: Date) -> ScheduledAction? {
        lock.withLock {
            while let first = state.queue.first, first.date <= limit {
                state.queue.removeFirst()
                guard !first.action.isDisposed else { continue }
                state.now = max(state.now, first.date)
                if let interval = first.interval {
                    var again = first
                    again.date = first.date.addingTimeInterval(interval)
                    state.insert(again)
                }
                return first.action
            }
            return nil
        }
    }
}
