import Synchronization

/// The registry of installed ``SignalInstrumentation`` hooks.
///
/// Several hooks may be installed at once (a test's recorder while the whole run is traced
/// to a file, say); each receives every call. With none installed, every instrumented call
/// site in the runtime costs one predictable branch and no allocation: a subscription
/// captures the hooks once when it is made, and nodes read one atomic flag when they are
/// created.
public enum Instrumentation {
    /// Adds `hook`; it receives every call from nodes and subscriptions made from now on.
    public static func install(_ hook: any SignalInstrumentation) {
        registry.withLock { registry in
            registry.hooks.append(hook)
            registry.rebuild()
        }
        isInstalled.store(true, ordering: .releasing)
    }

    /// Removes `hook`. Subscriptions made while it was installed keep reporting to it; a
    /// hook that must stop receiving calls ignores them itself, and stops values reaching
    /// it at all by stopping its ``SignalInstrumentation/activity`` (rule I8).
    public static func uninstall(_ hook: any SignalInstrumentation) {
        registry.withLock { registry in
            registry.hooks.removeAll { $0 === hook }
            registry.rebuild()
            isInstalled.store(!registry.hooks.isEmpty, ordering: .releasing)
        }
    }

    /// What new nodes and subscriptions report to: `nil` with no hook installed, the hook
    /// itself with one, and a hook forwarding to all of them with several.
    public static var current: (any SignalInstrumentation)? {
        guard isInstalled.load(ordering: .acquiring) else { return nil }
        return registry.withLock { $0.combined }
    }

    private struct Registry {
        var hooks: [any SignalInstrumentation] = []
        var combined: (any SignalInstrumentation)?

        mutating func rebuild() {
            combined = hooks.count > 1 ? FanOutInstrumentation(hooks) : hooks.first
        }
    }

    private static let isInstalled = Atomic<Bool>(false)
    private static let registry = Mutex(Registry())

    /// While a subscription's creation block runs: that subscription's id.
    static let currentSubscription = ThreadLocalWord()
    /// While a disposal cascade runs: the ``DisposalCause`` its subscriptions report.
    static let currentDisposalCause = ThreadLocalWord()

    /// The subscription whose creation block (or event handler making subscriptions on its
    /// behalf) is running on this thread, if any.
    static var subscriptionInProgress: SubscriptionID? {
        let value = currentSubscription.value
        return value == 0 ? nil : SubscriptionID(rawValue: UInt64(value))
    }

    static var disposalCauseInEffect: DisposalCause? {
        DisposalCause(rawValue: UInt8(truncatingIfNeeded: currentDisposalCause.value))
    }

    /// Runs `body` so that traced subscriptions it disposes report `cause`.
    static func disposing<Result>(because cause: DisposalCause, _ body: () -> Result) -> Result {
        currentDisposalCause.with(UInt(cause.rawValue), body)
    }
}
