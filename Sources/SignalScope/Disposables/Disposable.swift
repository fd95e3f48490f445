import Synchronization

/// Something that can be cleaned up once: a subscription, a scheduled action, a resource.
///
/// `Disposable { ... }` runs its action exactly once, on the first call to ``dispose()``,
/// whichever thread makes it; later calls do nothing. The action is released after it runs.
/// Subclasses (``CompoundDisposable``, ``SerialDisposable``, ``ScopedDisposable``) share
/// the same once-only guarantee.
public class Disposable: @unchecked Sendable {
    private let disposed = Atomic<Bool>(false)
    // Written once at init, then read and cleared only by the caller that wins `disposed`.
    private var action: (() -> Void)?

    /// Creates a disposable that runs `action` when first disposed.
    public init(_ action: @escaping () -> Void) {
        self.action = action
    }

    init() {}

    /// Whether ``dispose()`` has been called.
    public var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    /// Performs the clean-up, if it has not been performed yet. Thread-safe.
    public func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        performDisposal()
    }

    /// Wraps this disposable in one that disposes it when deinitialized.
    public func asScoped() -> ScopedDisposable {
        ScopedDisposable(self)
    }

    /// The subscription this disposable ends, if it is a subscription's (or wraps one), for
    /// the tracer's retain snapshots.
    package var subscriptionID: SubscriptionID? { nil }

    /// The clean-up itself; runs at most once. Subclasses override it.
    func performDisposal() {
        let action = self.action
        self.action = nil
        action?()
    }
}
