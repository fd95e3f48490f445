import Synchronization

/// Whether a hook still wants to hear from the subscriptions made while it was installed.
///
/// Subscriptions keep calling the hooks they were made with after those hooks are
/// uninstalled (``Instrumentation/uninstall(_:)``); a hook that has stopped (a finished
/// recording) ignores the calls. A hook that offers an activity lets subscriptions check it
/// before each value instead: one atomic load rather than a call, so that a stopped
/// recording costs the program almost nothing.
public final class InstrumentationActivity: Sendable {
    @usableFromInline let flag = Atomic<Bool>(true)

    /// An activity that is active until ``stop()``.
    public init() {}

    /// Whether the hook still wants values. Read without ordering: a value sent while the
    /// hook stops may or may not reach it, so the hook checks again itself.
    @inlinable public var isActive: Bool { flag.load(ordering: .relaxed) }

    /// Stops the activity for good: subscriptions stop sending values to the hook.
    public func stop() {
        flag.store(false, ordering: .releasing)
    }
}
