import Foundation

/// Runs every action at once, on the calling thread (RACScheduler.immediateScheduler).
///
/// `schedule(after:)` blocks the calling thread until the date. Repeating actions are not
/// supported, since they would never return.
public final class ImmediateScheduler: Scheduler {
    /// Creates an immediate scheduler.
    public init() {}

    /// The wall-clock time.
    public var now: Date { Date() }

    /// Runs `action` now, before returning; there is nothing to cancel.
    @discardableResult
    public func schedule(_ action: @escaping () -> Void) -> Disposable? {
        action()
        return nil
    }

    /// Blocks the calling thread until `date`, then runs `action`.
    @discardableResult
    public func schedule(after date: Date, _ action: @escaping () -> Void) -> Disposable? {
        Thread.sleep(until: date)
        action()
        return nil
    }

    /// Stops the program: an immediate scheduler cannot repeat an action and return.
    @discardableResult
    public func schedule(after date: Date, interval: TimeInterval, _ action: @escaping () -> Void) -> Disposable? {
        Require.unsupported(
            "ImmediateScheduler cannot run repeating actions; use a QueueScheduler or a TestScheduler")
    }
}
