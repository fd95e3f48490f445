// Without the OpenCombineAdapter trait (the quick `make test` build) the product is empty.
#if OpenCombineAdapter
import OpenCombine
import Runtime
import SignalScope
import SignalScopeHeap
import Synchronization

/// Traces OpenCombine code as it is written: OpenCombine's own introspection calls
/// (`_Introspection`) become SignalScope's instrumentation calls, so that a recording sees
/// OpenCombine's publishers, subscriptions, values, completions and cancellations as it sees
/// the runtime's, and the analyzers judge them by the same rules.
///
/// Linking the `SignalScopeOpenCombine` product is all it takes: the adapter registers itself
/// when the program loads, and listens to OpenCombine only while something records (a
/// `Tracer.record { }`, a leak check, `SIGNALSCOPE_TRACE`), so a program that records nothing
/// runs OpenCombine untouched.
///
/// What OpenCombine reports, and what the adapter makes of it:
/// - `subscribe(_:)` (OpenCombine's `willReceive(publisher:subscriber:)`): a node for the
///   publisher (one per subject, which has identity; one per subscription for a publisher
///   value, which has none) and a subscription of the subscriber to it. A subscribe made
///   while another is in progress on the thread (an operator subscribing its upstream) is part
///   of that one: its node feeds the outer node (an edge), its subscription's parent is the
///   outer subscription, and it is located where the outermost subscribe was called.
/// - A value, a failure or a finish reaching a subscriber: a delivery that begins before it
///   and ends after it (rule I12), so what the subscriber does meanwhile is caused by it.
/// - A completion reaching a subject's direct subscriber: the subject has terminated (once).
/// - What an operator that delivers on a scheduler (`receive(on:)`, `delay`, `debounce`)
///   delivers downstream, later and on another thread: an action scheduled by the event it
///   was given (``SchedulerHop``), so that causes cross the hop.
/// - `cancel()` of a subscription: the subscriptions that received it are disposed.
public final class OpenCombineAdapter: _Introspection, LibraryAdapter, @unchecked Sendable {
    /// The adapter every program that links this product has, registered when it loads.
    public static let shared = OpenCombineAdapter()

    /// Registers the adapter (once; the product's load-time constructor does it).
    static let registered: Void = {
        // The tables key subscriptions by `combineIdentifier`'s one word (``key(_:)``).
        precondition(MemoryLayout<CombineIdentifier>.size == MemoryLayout<UInt64>.size, "a CombineIdentifier is one word")
        // OpenCombine's objects (conduits, sinks, subscriptions) and the adapter's are a
        // reactive library's plumbing in leak paths, and their frames are never a site.
        HeapModules.declare(moduleOf: PassthroughSubject<Int, Never>.self, as: .reactiveRuntime)
        HeapModules.declare(moduleOf: OpenCombineAdapter.self, as: .reactiveRuntime)
        Instrumentation.register(shared)
    }()

    private init() {}

    /// The node of a publisher with identity (an object, or a value identified by the closure
    /// it keeps), reported once; a subject's is ended once.
    private struct KnownNode {
        let node: NodeID
        let reference: WeakBox
        var terminated = false
    }

    private struct State {
        /// By the subscriber's `combineIdentifier`: the latest subscription of that
        /// subscriber (an identifier an address gives is reused once the address is).
        var subscriptions: [UInt64: ReportedSubscription] = [:]
        /// By the `combineIdentifier` of a subscription a subscriber received: the
        /// subscribers that received it, upstream first, which its cancellation disposes.
        var receivedBy: [UInt64: [UInt64]] = [:]
        /// By the object each publisher with identity is (``PublisherIdentity``).
        var known: [ObjectIdentifier: KnownNode] = [:]
        /// By the subscriber's `combineIdentifier`: subscribers that are objects and received
        /// their completion, while they live, for an event that reaches them after it.
        var completed: [UInt64: Completed] = [:]
        /// By the subscription downstream of an operator that delivers on a scheduler: what
        /// that operator was given and has not delivered yet.
        var hops: [SubscriptionID: SchedulerHop] = [:]
        private var pruneAt = 1024

        /// Forgets subjects that have gone, and subscriptions received by subscribers that
        /// have ended, so that a long run does not accumulate them.
        mutating func pruneIfLarge() {
            guard known.count + completed.count + receivedBy.count >= pruneAt else { return }
            known = known.filter { $0.value.reference.object != nil }
            completed = completed.filter { $0.value.subscriber.object != nil }
            receivedBy = receivedBy.filter { entry in entry.value.contains { subscriptions[$0] != nil } }
            pruneAt = max(1024, 2 * (known.count + completed.count + receivedBy.count))
        }
    }

    /// A subscriber that received its completion: what an event reaching it later broke.
    private struct Completed {
        let hook: any SignalInstrumentation
        let node: NodeID
        let subscription: SubscriptionID
        /// The subscriber: its identifier is its address, which another may take once it is freed.
        let subscriber: WeakBox
    }

    private let state = Mutex(State())

    // MARK: LibraryAdapter

    public func instrumentationStarted() {
        epoch.add(1, ordering: .releasing)
        images.withLock { $0 = LoadedImages.capture() }
        enable()
    }

    /// Turns OpenCombine's hook off and forgets what was reported: OpenCombine tells the adapter
    /// nothing more of those subscriptions, and the hooks they reported to have stopped.
    public func instrumentationStopped() {
        disable()
        state.withLock { $0 = State() }
    }

    /// Counts the starts, so that a thread's stacks left half-done when the hook was turned off
    /// (a delivery in progress then) are dropped at its next call, never matched with a later one.
    private let epoch = Atomic<UInt64>(0)

    /// The images loaded when the hook was turned on, read once: `Backtrace.capture` given none
    /// reads every loaded image's headers in place on each call, which costs more than the rest
    /// of a subscribe and faults on a mapping that cannot be read (``LoadedImages``). Frames
    /// need no image to be captured; the tracer names them later from images it reads then.
    private let images = Mutex<ImageMap?>(nil)

    /// This thread's state, as of the current start.
    private func currentThread() -> ThreadState {
        ThreadState.current(epoch: epoch.load(ordering: .acquiring))
    }

    // MARK: Subscribing

    public func willReceive<Upstream: OpenCombine.Publisher, Downstream: OpenCombine.Subscriber>(publisher: Upstream, subscriber: Downstream)
    where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input {
        let thread = currentThread()
        let outer = thread.subscribes.last
        // Inside an operator's subscribe, its upstream's is part of it; otherwise it reports to
        // the hooks watching the code that subscribes now.
        let enclosing: SubscribeFrame?
        let hook: any SignalInstrumentation
        if let outer {
            guard let outer else { return thread.subscribes.append(nil) }
            (enclosing, hook) = (outer, outer.hook)
        } else {
            guard let current = Instrumentation.current else { return thread.subscribes.append(nil) }
            (enclosing, hook) = (nil, current)
        }
        let site = enclosing?.site ?? SourceLocation(callers: callers())
        let role = PublisherRoles.role(of: publisher)
        // A cold publisher was made where its work was written (a `Deferred`'s factory): the
        // line to share it at; an operator, where the closure it was given was written (the
        // line that applied it). Each function is named as a return address one past its entry.
        let work = role.traits.contains(.cold) ? PublisherIdentity.workFunctions(of: publisher)
            : role.kind == .operator ? withExtendedLifetime(publisher) { PublisherIdentity.appliedFunctions(of: publisher) } : []
        let made = work.isEmpty ? site : SourceLocation(callers: work.map { $0 &+ 1 } + (site.callers ?? []))
        let (node, subject) = self.node(of: publisher, role: role, site: made, hook: hook)
        if let enclosing { hook.edgeAdded(NodeEdge(parent: node, kind: .data), to: enclosing.node) }
        let subscription = SubscriptionID.next()
        let identifier = Self.key(subscriber.combineIdentifier)
        state.withLock { state in
            // The same subscriber subscribed again inside its own subscribe is handed on.
            let handing = state.subscriptions[identifier].flatMap { $0.subscription == enclosing?.subscription ? $0 : nil }
            state.subscriptions[identifier] = ReportedSubscription(
                hook: hook, subscription: subscription, node: node, subject: subject, receivesWork: role.sendsItsOwnWork,
                // An operator that delivers on a scheduler subscribes its own subscriber upstream.
                feedsHop: enclosing?.hop != nil ? enclosing?.subscription : nil,
                leavesHop: role.hop != nil, handedOnBy: handing?.chain ?? [])
            if let order = role.hop { state.hops[subscription] = SchedulerHop(order: order) }
            state.completed[identifier] = nil
        }
        hook.subscribed(
            SubscriptionDescriptor(
                id: subscription, node: node, site: site, parent: enclosing?.subscription,
                subscriber: PublisherRoles.subscriberType(of: Downstream.self)),
            object: Self.object(of: subscriber))
        // A subscriber hears every event: a sink and an assignment have a closure (or a
        // property) for each, and an operator passes each on.
        hook.observerStored(subscription, closures: ObserverClosures(handles: .all))
        // A cold publisher's subscribe runs its work (a `Deferred`'s factory, and what the
        // publisher it makes sends meanwhile): the run of its creation block, for this subscriber.
        let run = role.traits.contains(.cold) ? hook.creationBlockWillRun(for: subscription) : nil
        thread.subscribes.append(SubscribeFrame(hook: hook, node: node, subscription: subscription, site: site, run: run, hop: role.hop))
    }

    public func didReceive<Upstream: OpenCombine.Publisher, Downstream: OpenCombine.Subscriber>(publisher: Upstream, subscriber: Downstream)
    where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input {
        guard let frame = currentThread().subscribes.popLast(), let frame, let run = frame.run else { return }
        frame.hook.creationBlockEnded(run)
    }

    public func willReceive<Downstream: OpenCombine.Subscriber>(subscriber: Downstream, subscription: any OpenCombine.Subscription) {
        let (received, identifier) = (Self.key(subscription.combineIdentifier), Self.key(subscriber.combineIdentifier))
        state.withLock { state in
            guard state.subscriptions[identifier] != nil else { return }
            state.receivedBy[received, default: []].append(identifier)
            state.pruneIfLarge()
        }
    }

    // MARK: Deliveries

    public func willReceive<Downstream: OpenCombine.Subscriber>(subscriber: Downstream, input: Downstream.Input) {
        let thread = currentThread()
        guard let reported = reported(subscriber) else {
            reportIfCompleted(subscriber, .next)
            return thread.deliveries.append(nil)
        }
        let action = beginHop(reported, isCompletion: false)
        let run = beginWork(reported)
        thread.deliveries.append(
            Delivery(reported: reported, token: reported.hook.nextWillBeDelivered(reported.subscription, value: input), run: run, action: action))
        enterHop(reported, isCompletion: false)
    }

    public func didReceive<Downstream: OpenCombine.Subscriber>(subscriber: Downstream, input: Downstream.Input, resultingDemand: Subscribers.Demand) {
        // A subscriber that asks for more as it receives (most ask once, for any number),
        // unless the delivery cancelled it.
        guard let delivery = endDelivery(), resultingDemand != .none, !delivery.reported.isForgotten.load(ordering: .relaxed) else { return }
        delivery.reported.hook.demandRequested(delivery.reported.subscription, demand: Self.demand(resultingDemand))
    }

    public func willReceive<Downstream: OpenCombine.Subscriber>(subscriber: Downstream, completion: Subscribers.Completion<Downstream.Failure>) {
        let thread = currentThread()
        guard let reported = reported(subscriber) else {
            let kind: DroppedEvent.Kind = if case .failure = completion { .error } else { .completed }
            reportIfCompleted(subscriber, kind)
            return thread.deliveries.append(nil)
        }
        if let subject = reported.subject, terminate(subject) { reported.hook.nodeTerminated(reported.node) }
        let action = beginHop(reported, isCompletion: true)
        let run = beginWork(reported)
        let token: DeliveryToken
        switch completion {
        case .finished: token = reported.hook.completedWillBeDelivered(reported.subscription)
        case .failure(let failure): token = reported.hook.errorWillBeDelivered(reported.subscription, error: failure)
        }
        thread.deliveries.append(Delivery(reported: reported, token: token, run: run, action: action))
        enterHop(reported, isCompletion: true)
    }

    public func didReceive<Downstream: OpenCombine.Subscriber>(subscriber: Downstream, completion: Subscribers.Completion<Downstream.Failure>) {
        // A subscriber may subscribe again while it receives its completion (`retry`): then its
        // entry is the new subscription's, which this completion does not end.
        guard let delivery = endDelivery() else { return }
        let identifier = Self.key(subscriber.combineIdentifier)
        guard let reported = forget(identifier, ifStill: delivery.reported.subscription) else { return }
        if Downstream.self is AnyClass {
            let completed = Completed(
                hook: reported.hook, node: reported.node, subscription: reported.subscription, subscriber: WeakBox(subscriber as AnyObject))
            state.withLock { state in
                state.completed[identifier] = completed
                state.pruneIfLarge()
            }
        }
        for subscription in reported.chain.reversed() {
            reported.hook.observerReleased(subscription)
            reported.hook.disposed(subscription, cause: .terminal)
        }
    }

    // MARK: Demand

    public func willRequest(subscription: any OpenCombine.Subscription, _ demand: Subscribers.Demand) {
        // The subscriber that received the subscription last, downstream of the operators that
        // passed it on, is the one asking.
        let received = Self.key(subscription.combineIdentifier)
        let reported = state.withLock { state in state.receivedBy[received]?.last.flatMap { state.subscriptions[$0] } }
        guard let reported else { return }
        reported.hook.demandRequested(reported.subscription, demand: Self.demand(demand))
    }

    private static func demand(_ demand: Subscribers.Demand) -> SubscriptionDemand {
        demand.max.map(SubscriptionDemand.max) ?? .unlimited
    }

    // MARK: Cancelling

    public func willCancel(subscription: any OpenCombine.Subscription) {
        let thread = currentThread()
        let received = Self.key(subscription.combineIdentifier)
        let subscribers = state.withLock { $0.receivedBy.removeValue(forKey: received) } ?? []
        // The first cancellation on the thread is the program's; the ones it leads to, up the
        // chain, are the upstream's.
        let isFirst = thread.cancellations == 0
        thread.cancellations += 1
        // Downstream first, as the cancellation travels: the subscriber's outermost
        // subscription is the one the program cancelled.
        for (index, identifier) in subscribers.enumerated().reversed() {
            guard let reported = forget(identifier) else { continue }
            for (position, subscription) in reported.chain.enumerated() {
                reported.hook.observerReleased(subscription)
                reported.hook.disposed(subscription, cause: isFirst && index == subscribers.count - 1 && position == 0 ? .explicit : .upstream)
            }
        }
    }

    public func didCancel(subscription: any OpenCombine.Subscription) {
        let thread = currentThread()
        thread.cancellations = max(thread.cancellations - 1, 0)
    }

    // MARK: Helpers

    private func reported<Downstream: OpenCombine.Subscriber>(_ subscriber: Downstream) -> ReportedSubscription? {
        let identifier = Self.key(subscriber.combineIdentifier)
        return state.withLock { $0.subscriptions[identifier] }
    }

    /// A `combineIdentifier` as the number it is: OpenCombine's identifier is one word, and
    /// not `Sendable`, so the adapter's tables, behind a lock, hold the number.
    private static func key(_ identifier: CombineIdentifier) -> UInt64 {
        withUnsafeBytes(of: identifier) { $0.load(as: UInt64.self) }
    }

    /// A value or a completion reaching a subscriber after its completion breaks Combine's
    /// contract (a publisher sends nothing after a completion): reported as dropped, as the
    /// runtime reports an event after a terminal one. Only a subscriber that is an object is
    /// known again by its identifier with certainty (it is its address, and it still lives).
    private func reportIfCompleted<Downstream: OpenCombine.Subscriber>(_ subscriber: Downstream, _ kind: DroppedEvent.Kind) {
        guard Downstream.self is AnyClass else { return }
        let object = subscriber as AnyObject
        let identifier = Self.key(subscriber.combineIdentifier)
        guard let completed = state.withLock({ $0.completed[identifier] }), completed.subscriber.object === object else { return }
        completed.hook.eventDropped(DroppedEvent(kind: kind, node: completed.node, subscription: completed.subscription))
    }

    private func forget(_ identifier: UInt64) -> ReportedSubscription? {
        state.withLock { state in
            guard let reported = state.subscriptions.removeValue(forKey: identifier) else { return nil }
            return Self.forget(reported, in: &state)
        }
    }

    /// Forgets the subscriber's entry only if it is still `subscription`'s.
    private func forget(_ identifier: UInt64, ifStill subscription: SubscriptionID) -> ReportedSubscription? {
        state.withLock { state in
            guard state.subscriptions[identifier]?.subscription == subscription,
                let reported = state.subscriptions.removeValue(forKey: identifier)
            else { return nil }
            return Self.forget(reported, in: &state)
        }
    }

    private static func forget(_ reported: ReportedSubscription, in state: inout State) -> ReportedSubscription {
        state.hops[reported.subscription] = nil
        reported.isForgotten.store(true, ordering: .relaxed)
        return reported
    }

    /// Marks a subject ended, once: whether this is the first of its subscribers to hear it.
    private func terminate(_ subject: ObjectIdentifier) -> Bool {
        state.withLock { state in
            guard state.known[subject]?.terminated == false else { return false }
            state.known[subject]?.terminated = true
            return true
        }
    }

    /// Ends the thread's innermost delivery, and says what it was (`nil`: one nothing recorded).
    @discardableResult
    private func endDelivery() -> Delivery? {
        guard let delivery = currentThread().deliveries.popLast(), let delivery else { return nil }
        let hook = delivery.reported.hook
        hook.deliveryEnded(delivery.token)
        if let run = delivery.run { hook.creationBlockEnded(run) }
        if let action = delivery.action { hook.scheduledActionEnded(action) }
        return delivery
    }

    /// For what a publisher sends as its own work (a `Future`'s result, whenever and on
    /// whatever thread its promise is kept), a run of its work around the delivery, so that
    /// the delivery is known as work done rather than a value passed on.
    private func beginWork(_ reported: ReportedSubscription) -> DeliveryToken? {
        reported.receivesWork ? reported.hook.creationBlockWillRun(for: reported.subscription) : nil
    }

    /// For what comes out of an operator that delivers on a scheduler, the action scheduled by
    /// the event it came from, around the delivery: begun before it, so that the delivery is
    /// caused by that event.
    private func beginHop(_ reported: ReportedSubscription, isCompletion: Bool) -> DeliveryToken? {
        guard reported.leavesHop else { return nil }
        let scheduled = state.withLock { $0.hops[reported.subscription]?.leaving(isCompletion: isCompletion) }
        return reported.hook.scheduledActionWillRun(scheduled ?? nil)
    }

    /// What goes into an operator that delivers on a scheduler, once its delivery has begun:
    /// what the action it schedules carries, asked of the hook during that event.
    private func enterHop(_ reported: ReportedSubscription, isCompletion: Bool) {
        guard let downstream = reported.feedsHop else { return }
        let scheduled = reported.hook.actionScheduled()
        state.withLock { $0.hops[downstream]?.entered(isCompletion: isCompletion, scheduled: scheduled) }
    }

    /// The node of `publisher`: that of the object it is identified by, made once; a new one
    /// for a publisher value without identity. With it, for a subject (a publisher whose node
    /// is hot), the key of its entry.
    private func node<Upstream: OpenCombine.Publisher>(
        of publisher: Upstream, role: PublisherRoles.Role, site: SourceLocation, hook: any SignalInstrumentation
    ) -> (NodeID, subject: ObjectIdentifier?) {
        func report(_ node: NodeID, object: AnyObject) {
            hook.nodeCreated(
                NodeDescriptor(id: node, kind: role.kind, name: role.name, site: site, parents: [], traits: role.traits, library: role.library),
                object: object)
        }
        guard let object = Upstream.self is AnyClass ? publisher as AnyObject : PublisherIdentity.object(of: publisher) else {
            let node = NodeID.next()
            report(node, object: Ephemeral())
            return (node, nil)
        }
        let key = ObjectIdentifier(object)
        let (node, isNew): (NodeID, Bool) = state.withLock { state in
            if let known = state.known[key], known.reference.object === object { return (known.node, false) }
            state.pruneIfLarge()
            let node = NodeID.next()
            state.known[key] = KnownNode(node: node, reference: WeakBox(object))
            return (node, true)
        }
        if isNew { report(node, object: object) }
        return (node, role.traits.contains(.hot) ? key : nil)
    }

    /// What the tracer holds weakly for a subscription: the subscriber itself when it is an
    /// object (a sink, an assignment, an operator's inner subscriber); a subscriber that is a
    /// value lives inside what its upstream keeps, and has no object of its own to follow.
    private static func object<Downstream: OpenCombine.Subscriber>(of subscriber: Downstream) -> AnyObject {
        Downstream.self is AnyClass ? subscriber as AnyObject : Ephemeral()
    }

    /// The return addresses of the call in progress, innermost first, for the tracer to name
    /// the line that subscribed (only the outermost subscribe of a chain pays for it).
    private func callers() -> [UInt] {
        guard let backtrace = try? Backtrace.capture(limit: 48, images: images.withLock { $0 } ?? LoadedImages.capture()) else { return [] }
        return backtrace.frames.compactMap { frame in
            switch frame {
            case .returnAddress(let address), .programCounter(let address): UInt(address)
            default: nil
            }
        }
    }
}

/// Load-time registration, called by the product's C constructor (CSignalScopeOpenCombineBootstrap).
@_cdecl("signalscope_opencombine_register")
public func signalscopeOpenCombineRegister() {
    OpenCombineAdapter.registered
}

/// An object for a node or subscription that has none (a publisher or subscriber that is a
/// value): the tracer holds it weakly, and it is gone at once, so nothing is claimed alive.
private final class Ephemeral {}

private final class WeakBox: @unchecked Sendable {
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
}
#endif
