import Dispatch
import Foundation

/// Runs actions on a serial Dispatch queue (RACQueueScheduler).
///
/// ``main`` runs them on the main queue, which a command-line program must service with
/// `dispatchMain()` or a run loop.
public final class QueueScheduler: Scheduler {
    /// The scheduler of the main queue (RACScheduler.mainThreadScheduler).
    public static let main = QueueScheduler(queue: .main)

    /// The queue actions run on.
    public let queue: DispatchQueue

    /// Creates a scheduler on a new serial queue named `label`.
    public convenience init(label: String = "SignalScope.QueueScheduler", qos: DispatchQoS = .default) {
        self.init(queue: DispatchQueue(label: label, qos: qos))
    }

    /// Creates a scheduler on `queue`, which should be serial: actions assume they do not
    /// overlap.
    public init(queue: DispatchQueue) {
        self.queue = queue
    }

    /// The wall-clock time.
    public var now: Date { Date() }

    /// Runs `action` asynchronously on the queue, unless the returned disposable is disposed first.
    @discardableResult
    public func schedule(_ action: @escaping () -> Void) -> Disposable? {
        let scheduled = ScheduledAction(action, repeats: false)
        queue.async { scheduled.run() }
        return scheduled
    }

    /// Runs `action` on the queue at `date` (wall-clock time), unless disposed first.
    @discardableResult
    public func schedule(after date: Date, _ action: @escaping () -> Void) -> Disposable? {
        let scheduled = ScheduledAction(action, repeats: false)
        queue.asyncAfter(wallDeadline: Self.deadline(for: date)) { scheduled.run() }
        return scheduled
    }

    /// Runs `action` on the queue at `date`, then every `interval` seconds (which must be positive), until disposed.
    @discardableResult
    public func schedule(after date: Date, interval: TimeInterval, _ action: @escaping () -> Void) -> Disposable? {
        Require.positive(interval, "A repeating interval")
        let scheduled = ScheduledAction(action, repeats: true)
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.setEventHandler { scheduled.run() }
        timer.schedule(wallDeadline: Self.deadline(for: date), repeating: interval)
        timer.resume()
        return Disposable {
            scheduled.dispose()
            timer.cancel()
        }
    }

    private static func deadline(for date: Date) -> DispatchWallTime {
        .now() + max(0, date.timeIntervalSinceNow)
    }
}
