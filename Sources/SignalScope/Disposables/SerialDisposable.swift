
/// Holds one inner disposable at a time (RACSerialDisposable).
///
/// Setting ``inner`` disposes the previous inner disposable. Once the serial disposable is
/// disposed, its inner one is disposed too, and any disposable assigned later is disposed
/// at once.
public final class SerialDisposable: Disposable, @unchecked Sendable {
    private struct State {
        var inner: Disposable?
        var isDisposed = false
    }

    private let lock = StateLock()
    @exclusivity(unchecked) private var state: State

    /// Creates a serial disposable, optionally holding `inner`.
    public init(_ inner: Disposable? = nil) {
        state = State(inner: inner)
        super.init()
    }

    /// The current inner disposable. Assigning disposes the previous one.
    public var inner: Disposable? {
        get { lock.withLock { state.inner } }
        set {
            let (previous, rejected) = lock.withLock { () -> (Disposable?, Bool) in
                if state.isDisposed { return (nil, true) }
                defer { state.inner = newValue }
                return (state.inner, false)
            }
            previous?.dispose()
            if rejected { newValue?.dispose() }
        }
    }

    override func performDisposal() {
        let inner = lock.withLock {
            state.isDisposed = true
            defer { state.inner = nil }
            return state.inner
        }
        inner?.dispose()
    }
}
