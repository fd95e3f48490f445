import CSignalScopeThreadWords
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
        LibraryAdapters.update()
    }

    /// Removes `hook`. Subscriptions made while it was installed keep reporting to it; a
    /// hook that must stop receiving calls ignores them itself, and stops values reaching
    /// it at all by stopping its ``SignalInstrumentation/activity`` (rule I8).
    public static func uninstall(_ hook: any SignalInstrumentation) {
        registry.withLock { registry in
            // A new array, not one emptied in place: a stale word left in a kept buffer would
            // look to a leak checker (LeakSanitizer) as if the registry still held the hook.
            registry.hooks = registry.hooks.filter { $0 !== hook }
            registry.rebuild()
            isInstalled.store(!registry.hooks.isEmpty, ordering: .releasing)
        }
        LibraryAdapters.update()
    }

    /// Adds `adapter`, which feeds hooks from another reactive library's own introspection:
    /// it is told when the first hook is installed and when the last is uninstalled (at once,
    /// if hooks are installed now), so that the library's hook, which costs the library on
    /// every call, runs only while something records (rule I13).
    public static func register(_ adapter: any LibraryAdapter) {
        LibraryAdapters.register(adapter)
    }

    /// Whether any hook is installed.
    static var isActive: Bool { isInstalled.load(ordering: .acquiring) }

    /// What new nodes and subscriptions report to: `nil` when no installed hook watches the
    /// code running now, the hook itself when one does, and a hook forwarding to all of them
    /// when several do.
    public static var current: (any SignalInstrumentation)? {
        guard isInstalled.load(ordering: .acquiring) else { return nil }
        // One hook, the usual case, is taken alone, with one retain: the list is copied only
        // when there are more. Each is asked outside the lock: a hook answers from its own state.
        if let lone = registry.withLock({ $0.hooks.count == 1 ? $0.combined : nil }) {
            return lone.watchesCurrentCode() ? lone : nil
        }
        let (combined, hooks) = registry.withLock { ($0.combined, $0.hooks) }
        guard let combined else { return nil }
        guard let first = hooks.firstIndex(where: { !$0.watchesCurrentCode() }) else { return combined }
        var some = Array(hooks[..<first])
        for hook in hooks[(first + 1)...] where hook.watchesCurrentCode() { some.append(hook) }
        return some.count > 1 ? FanOutInstrumentation(some) : some.first
    }

    /// The installed hooks that watch the code running now, each itself (a tool looks for
    /// its own among them).
    package static var watchingHooks: [any SignalInstrumentation] {
        guard isInstalled.load(ordering: .acquiring) else { return [] }
        return registry.withLock { $0.hooks }.filter { $0.watchesCurrentCode() }
    }

    private struct Registry {
        var hooks: [any SignalInstrumentation] = []
        var combined: (any SignalInstrumentation)?

        mutating func rebuild() {
            combined = hooks.count > 1 ? FanOutInstrumentation(hooks) : hooks.first
        }
    }

    private static let isInstalled = Atomic<Bool>(false)
    private static let registry = LockedValue(Registry())

    /// While a subscription's creation block runs: that subscription's id.
    static let currentSubscription = ThreadLocalWord(signalscope_thread_word_current_subscription)
    /// While a disposal cascade runs: the ``DisposalCause`` its subscriptions report.
    static let currentDisposalCause = ThreadLocalWord(signalscope_thread_word_disposal_cause)

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

/// Feeds SignalScope's hooks from another reactive library's own introspection (an
/// OpenCombine `_Introspection`), registered with ``Instrumentation/register(_:)``.
public protocol LibraryAdapter: AnyObject, Sendable {
    /// The first hook was installed: the adapter starts listening to its library.
    func instrumentationStarted()
    /// The last hook was uninstalled: the adapter stops listening, so that the library runs
    /// as if no tool were there. Entities it reported keep reporting to their hooks (rule
    /// I10) only if the library still tells it of them; a stopped recording ignores them.
    func instrumentationStopped()
}

/// The registered adapters, told of each change between no hook and some, in the order the
/// changes happen: each update reads whether hooks are installed under the adapters' lock,
/// so two racing installs and uninstalls leave the adapters as the registry ends.
private enum LibraryAdapters {
    private struct State {
        var adapters: [any LibraryAdapter] = []
        var isStarted = false
    }

    private static let state = LockedValue(State())

    static func register(_ adapter: any LibraryAdapter) {
        state.withLock { state in
            state.adapters.append(adapter)
            if state.isStarted { adapter.instrumentationStarted() }
        }
    }

    static func update() {
        state.withLock { state in
            let active = Instrumentation.isActive
            guard active != state.isStarted else { return }
            state.isStarted = active
            for adapter in state.adapters {
                if active { adapter.instrumentationStarted() } else { adapter.instrumentationStopped() }
            }
        }
    }
}
