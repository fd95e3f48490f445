import Synchronization

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
    // The per-event path touches only `Value` itself, stored closures and non-generic
    // types (`DeliveryState`, `PendingDelivery`, `Admission`). In unspecialized generic
    // code every composite generic type (`Event<Value>`, a type nested in this class, ...)
    // costs a run-time metadata lookup, and the optimizer hoists those lookups out of rare
    // branches, so even one would dominate the cost of an event.

    // Delivery is serialized by `flags` (who drains, what waits, how the grammar stands): an
    // event sent while nobody delivers takes the drainer's role with one compare-and-swap,
    // delivers, and gives the role back with another when nothing waits. The lock and the
    // queue are touched only when events meet (a send during a delivery, from another
    // thread or re-entrantly) and for terminal events and interruptions. See DrainFlags.
    private let flags = Atomic<Int>(0)
    private let lock = StateLock()
    @exclusivity(unchecked) private var delivery = DeliveryState()
    // Only the drainer (see DrainFlags) touches these, so they need no lock of their own.
    private var onNext: ((Value) -> Void)?
    private var onError: ((any Error) -> Void)?
    private var onCompleted: (() -> Void)?
    private var source: Signal<Value>?
    private var isFinished = false

    /// The name of the stored property that holds the signal subscribed to, as a heap walk
    /// reads it: how an analysis names a source the trace never saw made (a signal made
    /// before recording started). `HeapWalkerTests` keeps it true.
    package static var sourcePropertyName: String { "source" }

    /// The subscription's disposable: what `subscribe` returns. Disposing it stops delivery,
    /// releases the observer and disposes the resources added to it.
    let disposable: SubscriptionDisposable
    /// The subscription's id in traces, or ``SubscriptionID/untraced`` when it was made
    /// with no instrumentation installed.
    public let id: SubscriptionID
    /// The node subscribed to (kept apart from `source`, which is released at the end).
    let nodeID: NodeID
    private let hook: (any SignalInstrumentation)?
    /// The hook's activity, read before every value so that a stopped hook costs a load.
    private let hookActivity: InstrumentationActivity?

    init(observer: Observer<Value>, source: Signal<Value>, site: SourceLocation) {
        onNext = observer.next
        onError = observer.error
        onCompleted = observer.completed
        self.source = source
        nodeID = source.id
        let hook = Instrumentation.current
        self.hook = hook
        hookActivity = hook?.activity
        id = hook == nil ? .untraced : .next()
        disposable = SubscriptionDisposable(isTraced: hook != nil)
        disposable.subscription = self
        if let hook {
            let parent = Instrumentation.currentSubscription.value
            hook.subscribed(SubscriptionDescriptor(
                id: id, node: source.id, site: site,
                parent: parent == 0 ? nil : SubscriptionID(rawValue: UInt64(parent)), bindingTarget: observer.bindsInto,
                reportsDeinit: true),
                object: self)
            hook.observerStored(id, closures: Self.closures(of: observer, site: site))
        }
    }

    // Rule I17: the hooks that heard of the subscription hear of its end, so they need not hold it.
    deinit {
        hook?.subscriptionDeinitialized(id)
    }

    /// The observer's closures, for the instrumentation: read from the observer, whose
    /// properties have the stored properties' types, so their words are the stored ones.
    private static func closures(of observer: Observer<Value>, site: SourceLocation) -> ObserverClosures {
        ObserverClosures(stored: StoredObserver(
            site: site, next: .init(next: observer.next), error: .init(error: observer.error),
            completed: .init(completed: observer.completed)))
    }

    /// Whether the subscription has ended: disposed, or a terminal event was sent.
    public var isDisposed: Bool { disposable.isDisposed }

    /// Adds a resource to dispose when the subscription ends.
    public func add(_ disposable: Disposable?) {
        self.disposable.add(disposable)
    }

    /// Sends a value. Dropped once the subscription has ended.
    public func sendNext(_ value: Value) {
        guard DrainFlags.enterIfIdle(flags) else { return sendNextAfterContention(value) }
        deliverNext(value)
        drain()
    }

    /// A value sent while another was being delivered, or after the end: admitted under the
    /// lock. Out of line, so that the common path above saves fewer registers.
    @inline(never)
    private func sendNextAfterContention(_ value: Value) {
        switch lock.withLock({ delivery.admit(terminal: false, flags: flags) { .next(value) } }) {
        case .deliverNow:
            deliverNext(value)
            drain()
        case .queued, .dropped: break
        case .violation: reportViolation(.next)
        }
    }

    /// Sends an error and ends the subscription.
    public func sendError(_ error: any Error) {
        switch lock.withLock({ delivery.admit(terminal: true, flags: flags) { .error(error) } }) {
        case .deliverNow:
            deliverError(error)
            drain()
        case .queued, .dropped: break
        case .violation: reportViolation(.error)
        }
    }

    /// Sends completion and ends the subscription.
    public func sendCompleted() {
        switch lock.withLock({ delivery.admit(terminal: true, flags: flags) { .completed } }) {
        case .deliverNow:
            deliverCompleted()
            drain()
        case .queued, .dropped: break
        case .violation: reportViolation(.completed)
        }
    }

    /// Ties a forwarding subscription's disposable to this subscription.
    public func didSubscribe(with disposable: Disposable) {
        add(disposable)
    }

    /// Runs `body` so that the subscriptions it makes report this one as their parent:
    /// operators that subscribe from an event handler (to an inner signal, a recovery, a
    /// retry) do so on behalf of their downstream subscription.
    @discardableResult
    func makingSubscriptions<Result>(_ body: () -> Result) -> Result {
        guard id != .untraced else { return body() }
        return Instrumentation.currentSubscription.with(UInt(id.rawValue), body)
    }

    /// Runs a cold signal's creation block for this subscription (traced runs only), so
    /// that the hooks tell its own work from what it forwards.
    func runningCreationBlock(_ body: () -> Void) {
        if let hook { hook.creationBlockRuns(for: id, run: body) } else { body() }
    }

    /// Reports that this subscription's node received a new parent (traced runs only).
    func reportEdge(from parent: NodeID, kind: EdgeKind) {
        hook?.edgeAdded(NodeEdge(parent: parent, kind: kind), to: nodeID)
    }

    /// Stops delivery and releases the observer: the disposable calls this when disposed.
    func interrupt(_ cause: DisposalCause) {
        switch lock.withLock({ delivery.admitInterrupt(cause, flags: flags) }) {
        case .now:
            finish(cause: cause)
            drain()
        case .behindDelivery:
            // Another thread is delivering: it ends the subscription once its callback
            // returns. The disposal took effect now (nothing more is delivered), so it is
            // reported now, on the disposing thread (I4): a recording that stops right after
            // `dispose()` returns must not see the subscription as live.
            hook?.disposed(id, cause: cause)
        case .refused:
            break
        }
    }

    private func reportViolation(_ kind: DroppedEvent.Kind) {
        hook?.eventDropped(DroppedEvent(kind: kind, node: nodeID, subscription: id))
    }

    /// Stops draining, or delivers what queued up while this thread was delivering. Inlined
    /// into every send, where nothing waits: the role is given back with one
    /// compare-and-swap, without the call and prologue of the loop below (which, for the
    /// queue's boxed values, looks up the value type's layout).
    @inline(__always)
    private func drain() {
        if !DrainFlags.leaveIfNothingWaits(flags) { deliverQueued() }
    }

    /// Delivers what queued up, then stops draining.
    @inline(never)
    private func deliverQueued() {
        repeat {
            guard let item = lock.withLock({ delivery.nextPending(flags: flags) }) else { return }
            switch item {
            case .next(let value): deliverNext(value as! Value)
            case .error(let error): deliverError(error)
            case .completed: deliverCompleted()
            case .interrupt(let cause): finish(cause: cause, reported: true)
            }
        } while !DrainFlags.leaveIfNothingWaits(flags)
    }

    // Inlined into `sendNext`, for the same reason as `drain`: a hop of a chain of operators
    // is a send and a delivery.
    @inline(__always)
    private func deliverNext(_ value: Value) {
        guard !isFinished else { return }
        // The activity first: a stopped recording costs one load (rule I8). The hook is called
        // in place (`hook?.`), not bound to a local, which would retain it for every value.
        if hookActivity?.isActive ?? true, hook != nil {
            // The hook runs the observer, so that what it does is seen as caused by this value.
            hook?.nextDelivered(id, value: value) { onNext?(value) }
        } else {
            onNext?(value)
        }
    }

    private func deliverError(_ error: any Error) {
        guard !isFinished else { return }
        let handler = onError
        func deliver() {
            endForTerminalEvent()
            handler?(error)
        }
        if let hook { hook.errorDelivered(id, error: error, deliver: deliver) } else { deliver() }
        releaseObserver()
    }

    private func deliverCompleted() {
        guard !isFinished else { return }
        let handler = onCompleted
        func deliver() {
            endForTerminalEvent()
            handler?()
        }
        if let hook { hook.completedDelivered(id, deliver: deliver) } else { deliver() }
        releaseObserver()
    }

    /// As in RAC, a terminal event disposes the subscription's resources before the
    /// observer hears of it.
    private func endForTerminalEvent() {
        isFinished = true
        hook?.disposed(id, cause: .terminal)
        disposable.dispose()
    }

    /// Ends the subscription; `reported`: its disposal was reported when it was asked for.
    private func finish(cause: DisposalCause, reported: Bool = false) {
        guard !isFinished else { return }
        isFinished = true
        if !reported { hook?.disposed(id, cause: cause) }
        releaseObserver()
    }

    private func releaseObserver() {
        onNext = nil
        onError = nil
        onCompleted = nil
        source = nil
        hook?.observerReleased(id)
    }
}

/// What a subscriber does with an event it was sent.
enum Admission {
    /// Deliver it now: the caller has become the drainer.
    case deliverNow
    /// Another delivery is in progress; the event waits in the queue.
    case queued
    /// The subscription was disposed.
    case dropped
    /// A terminal event was already sent: a grammar violation.
    case violation
}

/// An event waiting for a subscriber's current delivery to end, its value boxed.
enum PendingDelivery {
    case next(Any)
    case error(any Error)
    case completed
    case interrupt(DisposalCause)
}

/// A subscriber's delivery state: the ``DrainFlags`` word every sender reads without a
/// lock, with the grammar in two bits of its own (a terminal event was admitted: later
/// events are violations; the subscription was interrupted: later events are dropped), and
/// the events waiting for the drainer, under the subscriber's lock. Without its value type
/// (see Subscriber).
struct DeliveryState {
    static let terminal = 4
    static let interrupted = 8

    private var queue = DrainQueue<PendingDelivery>()

    /// Admits an event that did not take the fast path; `box` is called only when the event
    /// must wait.
    mutating func admit(terminal: Bool, flags: borrowing Atomic<Int>, _ box: () -> PendingDelivery) -> Admission {
        switch queue.enter(
            box, flags: flags, setting: terminal ? Self.terminal : 0, refusing: Self.terminal | Self.interrupted)
        {
        case .drainer: .deliverNow
        case .queued: .queued
        case .refused(let current): current & Self.terminal != 0 ? .violation : .dropped
        }
    }

    /// Admits an interruption, which drops whatever is still queued. Returns whether the
    /// caller has become the drainer and must finish the subscription now; otherwise the
    /// drainer finishes it after its current delivery.
    /// When an interruption is performed: now, by the caller; behind another thread's
    /// delivery, by that thread; or never (the subscription had already ended).
    enum InterruptAdmission {
        case now, behindDelivery, refused
    }

    mutating func admitInterrupt(_ cause: DisposalCause, flags: borrowing Atomic<Int>) -> InterruptAdmission {
        let entry = queue.enter(
            { .interrupt(cause) }, flags: flags, setting: Self.interrupted,
            refusing: Self.interrupted | Self.terminal, replacingWaiting: true)
        switch entry {
        case .drainer: return .now
        case .queued: return .behindDelivery
        case .refused: return .refused
        }
    }

    /// The next queued event, or `nil`, after which the caller is no longer the drainer.
    mutating func nextPending(flags: borrowing Atomic<Int>) -> PendingDelivery? {
        queue.next(flags: flags)
    }
}

/// The disposable of one subscription: the compound of its resources, plus the power to
/// interrupt the subscription. It holds the subscription weakly (see the diagram in
/// Subscriber.swift), so holding it never keeps an observer alive.
final class SubscriptionDisposable: CompoundDisposable, @unchecked Sendable {
    weak var subscription: (any InterruptibleSubscription)?

    override package var subscriptionID: SubscriptionID? { subscription?.id }
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
    var id: SubscriptionID { get }
    func interrupt(_ cause: DisposalCause)
}

extension Subscriber: InterruptibleSubscription {}
