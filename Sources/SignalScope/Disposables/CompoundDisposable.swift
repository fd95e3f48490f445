
/// Disposes a group of disposables together (RACCompoundDisposable).
///
/// Adding to a compound that is already disposed disposes the added one at once, so no
/// resource can slip in after clean-up. Children are disposed in the order they were added.
public class CompoundDisposable: Disposable, @unchecked Sendable {
    // `nil` once disposed.
    private let lock = StateLock()
    @exclusivity(unchecked) private var children: [Disposable]?

    /// Creates a compound holding `disposables`.
    public init(_ disposables: [Disposable] = []) {
        children = disposables
        super.init()
    }

    /// Adds `disposable` (ignored when `nil`); disposes it at once if this compound is
    /// already disposed.
    public func add(_ disposable: Disposable?) {
        guard let disposable else { return }
        let added = lock.withLock { () -> Bool in
            guard children != nil else { return false }
            children!.append(disposable)
            return true
        }
        if !added { disposable.dispose() }
    }

    /// Removes `disposable` without disposing it.
    public func remove(_ disposable: Disposable) {
        lock.withLock {
            guard let index = children?.lastIndex(where: { $0 === disposable }) else { return }
            children!.remove(at: index)
        }
    }

    override func performDisposal() {
        let taken = lock.withLock {
            defer { children = nil }
            return children ?? []
        }
        for child in taken { child.dispose() }
    }
}
