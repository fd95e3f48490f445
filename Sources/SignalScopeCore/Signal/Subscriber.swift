// Who retains whom (compare RACPassthroughSubscriber):
//
//   your code ──(optional)──▶ SubscriptionDisposable ──▶ upstream resources
//                                   ┆ weak                (creation block's disposable,
//                                   ▼                      a subject's removal, ...)
//   creation block's captures ──▶ Subscriber ──▶ observer closures ──▶ what they capture
//   a Subject's subscriber list ──▶   │
//                                     └──▶ source Signal
//
// The Subscriber lets go of its observer closures and its source as soon as it receives a
// terminal event or is disposed, which breaks every cycle that runs through them. The
// disposable does not retain the Subscriber, so an unreachable subscription is freed.

/// One subscription to a signal: the object a signal's creation block sends events to
/// (RACPassthroughSubscriber).
///
/// It enforces the event grammar (`next* (error | completed)?`), serializes delivery to its
/// observer, and releases the observer's closures when the subscription ends.
///
/// Thread-safety: events may be sent from any number of threads at once. Deliveries to the
/// observer never overlap; an event sent while another is being delivered, including one
/// sent re-entrantly from inside the observer, is delivered right after it. No lock is held
/// while observer code runs.
public final class Subscriber<Value>: SubscriberProtocol, @unchecked Sendable {
    private enum Delivery {
        case event(Event<Value>)
        case interrupt(DisposalCause)
    }

    private enum Admission {
        case deliver(Delivery)
        case queued
        case dropped
        case violation
    }

    private struct State {
        var queue = Trampoline<Delivery>()
        var terminalAccepted = false
        var interrupted = false
    }

    private let state = Locked(State())
    // Only the trampoline's drainer touches these three, so they need no lock of their own.
    private var observer: Observer<Value>?
    private var source: Signal<Value>?
    private var isFinished = false

    /// The subscription's disposable: what `subscribe` returns. Disposing it stops delivery,
    /// releases the observer and disposes the resources added to it.
    let disposable: SubscriptionDisposable
    /// The subscription's id in traces, or ``SubscriptionID/untraced`` when it was made
    /// with no instrumentation installed.
    public let id: SubscriptionID
    /// The node subscribed to (kept apart from `source`, which is released at the end).
    let nodeID: NodeID
    private let hook: (any SignalInstrumentation)?

    init(observer: Observer<Value>, source: Signal<Value>, site: SourceLocation) {
        self.observer = observer
        self.source = source
        nodeID = source.id
        let hook = Instrumentation.current
        self.hook = hook
        id = hook == nil ? .untraced : .next()
        disposable = SubscriptionDisposable(isTraced: hook != nil)
        disposable.subscription = self
        if let hook {
            let parent = Instrumentation.currentSubscription.value
            hook.subscribed(SubscriptionDescriptor(
                id: id, node: source.id, site: site,
                parent: parent == 0 ? nil : SubscriptionID(rawValue: UInt64(parent))))
            hook.observerStored(id, closures: observer.closures)
        }
    }

    /// Whether the subscription has ended: disposed, or a terminal event was sent.
    public var isDisposed: Bool { disposable.isDisposed }

    /// Adds a resource to dispose when the subscription ends.
    public func add(_ disposable: Disposable?) {
        self.disposable.add(disposable)
    }

    /// Sends a value. Dropped once the subscription has ended.
    public func sendNext(_ value: Value) { send(.next(value)) }

    /// Sends an error and ends the subscription.
    public func sendError(_ error: any Error) { send(.error(error)) }

    /// Sends completion and ends the subscription.
    public func sendCompleted() { send(.completed) }

    /// Ties a forwarding subscription's disposable to this subscription.
    public func didSubscribe(with disposable: Disposable) {
        add(disposable)
    }

    /// Sends `event`. Events after a terminal event are dropped (and reported to the
    /// instrumentation as a violation); events after disposal are dropped silently.
    public func send(_ event: Event<Value>) {
        let admission = state.withLock { state -> Admission in
            if state.terminalAccepted { return .violation }
            if state.interrupted { return .dropped }
            if event.isTerminal { state.terminalAccepted = true }
            return state.queue.enter(.event(event)) ? .deliver(.event(event)) : .queued
        }
        switch admission {
        case .deliver(let delivery): drain(from: delivery)
        case .queued, .dropped: break
        case .violation:
            hook?.eventDropped(DroppedEvent(kind: event.droppedKind, node: nodeID, subscription: id))
        }
    }

    /// Reports that this subscription's node received a new parent (traced runs only).
    func reportEdge(from parent: NodeID, kind: EdgeKind) {
        hook?.edgeAdded(NodeEdge(parent: parent, kind: kind), to: nodeID)
    }

    /// Stops delivery and releases the observer: the disposable calls this when disposed.
    func interrupt(_ cause: DisposalCause) {
        let admission = state.withLock { state -> Admission in
            if state.interrupted || state.terminalAccepted { return .dropped }
            state.interrupted = true
            state.queue.discardPending()
            return state.queue.enter(.interrupt(cause)) ? .deliver(.interrupt(cause)) : .queued
        }
        if case .deliver(let delivery) = admission { drain(from: delivery) }
    }

    private func drain(from first: Delivery) {
        var current: Delivery? = first
        while let delivery = current {
            switch delivery {
            case .event(let event): deliver(event)
            case .interrupt(let cause): finish(cause: cause)
            }
            current = state.withLock { $0.queue.next() }
        }
    }

    private func deliver(_ event: Event<Value>) {
        guard !isFinished else { return }
        switch event {
        case .next(let value):
            hook?.nextDelivered(id, value: value)
            observer?.next?(value)
        case .error(let error):
            hook?.errorDelivered(id, error: error)
            let handler = observer?.error
            endForTerminalEvent()
            handler?(error)
            releaseObserver()
        case .completed:
            hook?.completedDelivered(id)
            let handler = observer?.completed
            endForTerminalEvent()
            handler?()
            releaseObserver()
        }
    }

    /// As in RAC, a terminal event disposes the subscription's resources before the
    /// observer hears of it.
    private func endForTerminalEvent() {
        isFinished = true
        hook?.disposed(id, cause: .terminal)
        disposable.dispose()
    }

    private func finish(cause: DisposalCause) {
        guard !isFinished else { return }
        isFinished = true
        hook?.disposed(id, cause: cause)
        releaseObserver()
    }

    private func releaseObserver() {
        observer = nil
        source = nil
        hook?.observerReleased(id)
    }
}

/// The disposable of one subscription: the compound of its resources, plus the power to
/// interrupt the subscription. It holds the subscription weakly (see the diagram in
/// Subscriber.swift), so holding it never keeps an observer alive.
final class SubscriptionDisposable: CompoundDisposable, @unchecked Sendable {
    weak var subscription: (any InterruptibleSubscription)?
    private let isTraced: Bool

    init(isTraced: Bool) {
        self.isTraced = isTraced
        super.init()
    }

    override func performDisposal() {
        guard isTraced else {
            subscription?.interrupt(.explicit)
            super.performDisposal()
            return
        }
        // Whatever disposed this subscription (the user, a scoped owner, its downstream)
        // is the cause it reports; the subscriptions it owns were disposed because of it.
        subscription?.interrupt(Instrumentation.disposalCauseInEffect ?? .explicit)
        Instrumentation.disposing(because: .upstream) { super.performDisposal() }
    }
}

protocol InterruptibleSubscription: AnyObject {
    func interrupt(_ cause: DisposalCause)
}

extension Subscriber: InterruptibleSubscription {}
