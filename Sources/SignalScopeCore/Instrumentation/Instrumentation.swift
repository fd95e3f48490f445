import Synchronization

/// The registry holding the installed ``SignalInstrumentation`` hook, if any.
///
/// With no hook installed, every instrumented call site in the runtime costs one
/// predictable branch and no allocation: a subscription captures the hook once when it is
/// made, and nodes read one atomic flag when they are created.
public enum Instrumentation {
    /// Installs `hook`, replacing the current one. Returns the hook it replaced.
    @discardableResult
    public static func install(_ hook: any SignalInstrumentation) -> (any SignalInstrumentation)? {
        let previous = storage.withLock { current in
            defer { current = hook }
            return current
        }
        isInstalled.store(true, ordering: .releasing)
        return previous
    }

    /// Removes the installed hook. Returns the hook it removed.
    @discardableResult
    public static func uninstall() -> (any SignalInstrumentation)? {
        isInstalled.store(false, ordering: .releasing)
        return storage.withLock { current in
            defer { current = nil }
            return current
        }
    }

    /// The installed hook, or `nil`.
    public static var current: (any SignalInstrumentation)? {
        guard isInstalled.load(ordering: .acquiring) else { return nil }
        return storage.withLock { $0 }
    }

    private static let isInstalled = Atomic<Bool>(false)
    private static let storage = Mutex<(any SignalInstrumentation)?>(nil)

    /// While a subscription's creation block runs: that subscription's id.
    static let currentSubscription = ThreadLocalWord()
    /// While a disposal cascade runs: the ``DisposalCause`` its subscriptions report.
    static let currentDisposalCause = ThreadLocalWord()

    static var disposalCauseInEffect: DisposalCause? {
        DisposalCause(rawValue: UInt8(truncatingIfNeeded: currentDisposalCause.value))
    }

    /// Runs `body` so that traced subscriptions it disposes report `cause`.
    static func disposing<Result>(because cause: DisposalCause, _ body: () -> Result) -> Result {
        currentDisposalCause.with(UInt(cause.rawValue), body)
    }
}
