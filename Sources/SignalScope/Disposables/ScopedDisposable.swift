/// Disposes the disposable it wraps when it is deinitialized (RACScopedDisposable).
///
/// Store one in a property to tie a subscription to the owner's lifetime:
/// `self.subscription = signal.subscribeNext { ... }.asScoped()`.
public final class ScopedDisposable: Disposable, @unchecked Sendable {
    private let wrapped: Disposable

    /// Wraps `disposable`.
    public init(_ disposable: Disposable) {
        wrapped = disposable
        super.init()
    }

    deinit {
        guard !isDisposed else { return }
        Instrumentation.disposing(because: .scopedDeinit) { dispose() }
    }

    override func performDisposal() {
        wrapped.dispose()
    }

    override package var subscriptionID: SubscriptionID? { wrapped.subscriptionID }

    /// Returns itself: it is already scoped.
    public override func asScoped() -> ScopedDisposable { self }
}
