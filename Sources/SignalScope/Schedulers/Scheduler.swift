import Foundation

/// Runs actions now, later, or repeatedly (RACScheduler).
///
/// Time-based operators take any scheduler, so the same code runs on a ``QueueScheduler``
/// in an app and deterministically on a ``TestScheduler`` in tests.
public protocol Scheduler: AnyObject, Sendable {
    /// The scheduler's current time: the wall clock, or a test scheduler's virtual time.
    var now: Date { get }

    /// Runs `action` as soon as possible.
    /// - Returns: A disposable that cancels `action` if it has not started, or `nil` when
    ///   the action has already run (as on ``ImmediateScheduler``).
    @discardableResult
    func schedule(_ action: @escaping () -> Void) -> Disposable?

    /// Runs `action` at `date`, or as soon as possible if `date` has passed.
    /// - Returns: A disposable that cancels `action`, or `nil` if it cannot be cancelled.
    @discardableResult
    func schedule(after date: Date, _ action: @escaping () -> Void) -> Disposable?

    /// Runs `action` at `date`, then every `interval` seconds until disposed.
    /// - Parameter interval: Seconds between runs; must be positive.
    /// - Returns: A disposable that stops the repetition.
    @discardableResult
    func schedule(after date: Date, interval: TimeInterval, _ action: @escaping () -> Void) -> Disposable?
}

extension Scheduler {
    /// Runs `action` after `delay` seconds (which must not be negative).
    @discardableResult
    public func schedule(afterDelay delay: TimeInterval, _ action: @escaping () -> Void) -> Disposable? {
        Require.nonNegative(delay, "A scheduling delay")
        return schedule(after: now.addingTimeInterval(delay), action)
    }
}
