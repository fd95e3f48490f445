import Synchronization

/// Tells when something ends (the `rac_willDeallocSignal` analog).
///
/// ```swift
/// final class ViewModel {
///     let lifetime: Lifetime
///     private let token: Lifetime.Token
///     init() { (lifetime, token) = Lifetime.make() }
/// }
/// signal.takeUntil(viewModel.lifetime.ended)   // stops when the view model goes away
/// ```
///
/// ``ended`` sends one `()` and completes when the ``Token`` is deinitialized; a subscriber
/// that arrives later receives the same at once.
public final class Lifetime: Sendable {
    /// Ends its lifetime when deinitialized. Keep it in the object whose life it marks.
    public final class Token: Sendable {
        fileprivate let lifetime: Lifetime

        fileprivate init(_ lifetime: Lifetime) {
            self.lifetime = lifetime
        }

        deinit {
            lifetime.end()
        }
    }

    private let endedSubject: ReplaySubject<Void>
    private let endedFlag = Atomic<Bool>(false)

    private init(site: SourceLocation) {
        endedSubject = ReplaySubject(kind: .lifetime, name: "lifetime", traits: .completesByItself, capacity: 1, site: site)
    }

    /// Makes a lifetime and the token that ends it.
    public static func make(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> (lifetime: Lifetime, token: Token) {
        let lifetime = Lifetime(site: SourceLocation(fileID: file, line: line, function: function))
        return (lifetime, Token(lifetime))
    }

    /// Sends `()` and completes when the lifetime ends.
    public var ended: Signal<Void> { endedSubject }

    /// Whether the token has been deinitialized.
    public var hasEnded: Bool { endedFlag.load(ordering: .acquiring) }

    private func end() {
        endedFlag.store(true, ordering: .releasing)
        endedSubject.sendNext(())
        endedSubject.sendCompleted()
    }
}
