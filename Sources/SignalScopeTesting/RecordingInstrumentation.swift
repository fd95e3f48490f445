@_spi(Locking) import SignalScope

/// A ``SignalInstrumentation`` that records every call, for tests of the runtime's seam
/// and of code that wants to see what the runtime reports.
///
/// ```swift
/// let spy = RecordingInstrumentation.recording {
///     Signal.just(1).subscribeNext { _ in }
/// }
/// #expect(spy.calls.contains { if case .completed = $0 { true } else { false } })
/// ```
///
/// Hooks are global: what other threads do while it is installed is recorded too. Filter by
/// the nodes and subscriptions your code made (``subscriptions(of:)``, ``calls(of:)``).
public final class RecordingInstrumentation: SignalInstrumentation {
    /// One call the runtime made.
    public enum Call: Equatable, Sendable {
        case nodeCreated(NodeDescriptor)
        case nodeNamed(NodeID, String)
        case edgeAdded(NodeEdge, to: NodeID)
        case subscribed(SubscriptionDescriptor)
        case observerStored(SubscriptionID, closureCount: Int)
        case observerReleased(SubscriptionID)
        /// `value` is the delivered value's `String(describing:)`.
        case next(SubscriptionID, value: String)
        case error(SubscriptionID, description: String)
        case completed(SubscriptionID)
        case disposed(SubscriptionID, DisposalCause)
        case dropped(DroppedEvent)

        /// The subscription the call is about, if it is about one.
        public var subscription: SubscriptionID? {
            switch self {
            case .nodeCreated, .nodeNamed, .edgeAdded: nil
            case .subscribed(let descriptor): descriptor.id
            case .observerStored(let id, _), .observerReleased(let id), .next(let id, _), .error(let id, _),
                .completed(let id), .disposed(let id, _):
                id
            case .dropped(let event): event.subscription
            }
        }
    }

    private let log = LockedValue<[Call]>([])

    /// Creates a hook with nothing recorded; install it with `Instrumentation.install(_:)`.
    /// Whether this hook still wants values (``InstrumentationActivity``); `nil`, the
    /// default, hears every value, even after it is uninstalled.
    public let activity: InstrumentationActivity?

    private let watches: @Sendable () -> Bool

    /// A hook that records every call; with an `activity`, values stop reaching it once the
    /// activity stops; with `watches`, it hears only of what is made while `watches` says
    /// yes on the thread making it (rule I10), and of what that does later.
    public init(activity: InstrumentationActivity? = nil, watches: @escaping @Sendable () -> Bool = { true }) {
        _ = TestingModule.declared
        self.activity = activity
        self.watches = watches
    }

    public func watchesCurrentCode() -> Bool { watches() }

    /// Installs a new recorder, runs `body`, uninstalls it, and returns it.
    public static func recording(_ body: () throws -> Void) rethrows -> RecordingInstrumentation {
        let recorder = RecordingInstrumentation()
        Instrumentation.install(recorder)
        defer { Instrumentation.uninstall(recorder) }
        try body()
        return recorder
    }

    /// Every call, in the order they were made.
    public var calls: [Call] { log.withLock { $0 } }

    /// The nodes created, in order.
    public var nodes: [NodeDescriptor] {
        calls.compactMap { if case .nodeCreated(let node) = $0 { node } else { nil } }
    }

    /// The subscriptions made to `node`, in order.
    public func subscriptions(of node: NodeID) -> [SubscriptionDescriptor] {
        calls.compactMap {
            if case .subscribed(let descriptor) = $0, descriptor.node == node { descriptor } else { nil }
        }
    }

    /// The calls about `subscription`, in order.
    public func calls(of subscription: SubscriptionID) -> [Call] {
        calls.filter { $0.subscription == subscription }
    }

    public func nodeCreated(_ node: NodeDescriptor, object: AnyObject) { append(.nodeCreated(node)) }
    public func nodeNamed(_ node: NodeID, name: String) { append(.nodeNamed(node, name)) }
    public func edgeAdded(_ edge: NodeEdge, to node: NodeID) { append(.edgeAdded(edge, to: node)) }
    public func subscribed(_ subscription: SubscriptionDescriptor, object: AnyObject) {
        append(.subscribed(subscription))
    }
    public func observerStored(_ subscription: SubscriptionID, closures: ObserverClosures) {
        append(.observerStored(subscription, closureCount: closures.count))
    }
    public func observerReleased(_ subscription: SubscriptionID) { append(.observerReleased(subscription)) }
    public func nextWillBeDelivered<Value>(_ subscription: SubscriptionID, value: Value) -> DeliveryToken {
        append(.next(subscription, value: String(describing: value)))
        return .none
    }
    public func errorWillBeDelivered(_ subscription: SubscriptionID, error: any Error) -> DeliveryToken {
        append(.error(subscription, description: String(describing: error)))
        return .none
    }
    public func completedWillBeDelivered(_ subscription: SubscriptionID) -> DeliveryToken {
        append(.completed(subscription))
        return .none
    }
    public func disposed(_ subscription: SubscriptionID, cause: DisposalCause) {
        append(.disposed(subscription, cause))
    }
    public func eventDropped(_ violation: DroppedEvent) { append(.dropped(violation)) }

    private func append(_ call: Call) { log.withLock { $0.append(call) } }
}
