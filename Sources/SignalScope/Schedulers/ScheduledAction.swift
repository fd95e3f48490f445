/// An action a scheduler will run, kept in an object of its own until it has run (once) or
/// is cancelled (repeating): the disposable ``QueueScheduler`` and ``TestScheduler`` return.
///
/// Cancelling lets go of the action at once, and with it whatever it captures, even when the
/// queue it was put on still holds this object until its time comes. Because the action
/// lives in this object, a tracer that holds it weakly can tell what a pending action (a
/// timer, say) keeps alive.
final class ScheduledAction: Disposable, @unchecked Sendable {
    /// The action in a struct of its own: handing a bare closure to generic `inout` code
    /// (the lock's) would wrap it in a new reabstraction thunk at every access.
    private struct Action {
        var body: (() -> Void)?
    }

    private let lock = StateLock()
    @exclusivity(unchecked) private var action: Action
    private let repeats: Bool
    /// The hook installed when the action was scheduled, and what it wanted back when the
    /// action runs (the event whose delivery scheduled it, which caused what it does).
    let hook: (any SignalInstrumentation)?
    private let scheduledBy: (any Sendable)?

    init(_ action: @escaping () -> Void, repeats: Bool) {
        self.action = Action(body: action)
        self.repeats = repeats
        hook = Instrumentation.current
        scheduledBy = hook?.actionScheduled()
        super.init()
        hook?.closuresKept(
            [KeptClosure(.scheduledAction, nil, action)],
            by: .scheduledAction(Instrumentation.subscriptionInProgress), object: self)
    }

    /// Runs the action unless it was cancelled; a one-time action is let go of first.
    func run() {
        let body = lock.withLock {
            defer { if !repeats { action.body = nil } }
            return action.body
        }
        guard let body else { return }
        if let hook { hook.scheduledActionRuns(scheduledBy, run: body) } else { body() }
    }

    override func performDisposal() {
        lock.withLock { action.body = nil }
    }
}
