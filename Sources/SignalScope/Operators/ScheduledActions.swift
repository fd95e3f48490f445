import Foundation

/// The actions an operator scheduled for one subscription. Each one forgets its
/// cancellation handle once it has run, so a long-lived subscription does not accumulate
/// them; disposing cancels all that have not run yet.
final class ScheduledActions: Sendable {
    let pending = CompoundDisposable()

    /// Runs `action` on `scheduler` after `delay` seconds, or as soon as possible when
    /// `delay` is `nil`.
    func schedule(on scheduler: any Scheduler, after delay: TimeInterval? = nil, _ action: @escaping () -> Void) {
        let handle = SerialDisposable()
        pending.add(handle)
        let run: () -> Void = { [pending] in
            pending.remove(handle)
            action()
        }
        handle.inner =
            if let delay {
                scheduler.schedule(after: scheduler.now.addingTimeInterval(delay), run)
            } else {
                scheduler.schedule(run)
            }
    }
}
