import Foundation

/// The runtime's instrumentation seam: the one protocol a tracer implements.
///
/// The runtime calls these methods at every node creation, subscription, event, terminal
/// event, disposal and observer store or release. It knows nothing else about tracing: a
/// tracer plugs in with ``Instrumentation/install(_:)``.
///
/// Calls arrive on whatever thread the runtime is running on, possibly several at once,
/// so conforming types must be thread-safe. They must not call back into the runtime
/// (for example subscribe to a signal) from inside a callback.
///
/// One rule picks the hooks a call goes to (rule I10 of `docs/semantics.md`): a call that
/// makes something (a node, a subscription, a command, a scheduled action, a test
/// scheduler) goes to the hooks installed at that moment that watch the code making it, and
/// every later call about that thing (a subscription's events, disposal and the edges it
/// adds, a node's name, a subject's dropped event, a multicast's edge, an action running)
/// goes to those same hooks, for its whole life. A hook that should stop receiving calls after it is
/// uninstalled has to ignore them itself.
public protocol SignalInstrumentation: AnyObject, Sendable {
    /// Whether the hook wants to hear of what the code running now on this thread makes
    /// and does: asked each time the runtime picks the hooks for a new node, subscription,
    /// command or scheduled action, or for a call that belongs to no subscription. A hook
    /// that records some code only (a test's recording) answers from what is running;
    /// the default, `true`, watches everything.
    func watchesCurrentCode() -> Bool

    /// A node of the signal graph was created. `object` is the signal itself, for tools
    /// that check at the end of a run whether it is still alive: held weakly, or, when the
    /// descriptor ``NodeDescriptor/reportsDeinit``, not held at all until
    /// ``nodeDeinitialized(_:)`` says it is going.
    func nodeCreated(_ node: NodeDescriptor, object: AnyObject)

    /// The object of a node whose descriptor ``NodeDescriptor/reportsDeinit`` is being
    /// deinitialized: it can no longer be retained, and its memory is freed once this
    /// returns.
    func nodeDeinitialized(_ node: NodeID)

    /// A node was given a name to show in graphs (`named(_:)`).
    func nodeNamed(_ node: NodeID, name: String)

    /// An edge into `node` appeared after the node was created: an inner signal reached a
    /// `flatten` or `switchToLatest` stage, or a multicast connection was set up.
    func edgeAdded(_ edge: NodeEdge, to node: NodeID)

    /// An observer subscribed to a node. Sent before the node's creation block runs.
    /// `object` is the subscription itself: held weakly, or, when the descriptor
    /// ``SubscriptionDescriptor/reportsDeinit``, not held at all until
    /// ``subscriptionDeinitialized(_:)`` says it is going.
    func subscribed(_ subscription: SubscriptionDescriptor, object: AnyObject)

    /// The object of a subscription whose descriptor
    /// ``SubscriptionDescriptor/reportsDeinit`` is being deinitialized: it can no longer be
    /// retained, and its memory is freed once this returns.
    func subscriptionDeinitialized(_ subscription: SubscriptionID)

    /// The subscription stored its observer closures: from now on the subscription keeps
    /// whatever they capture alive. Tools that inspect captures find them in `closures`.
    func observerStored(_ subscription: SubscriptionID, closures: ObserverClosures)

    /// `object` keeps `closures` alive for as long as it lives (a signal its creation block
    /// and its operator's closures, a command its block, a scheduled action its action), so
    /// it keeps what they capture alive too. Tools that look for leaks find the closures'
    /// captures through `object` (hold it weakly), and name them with `closures`.
    func closuresKept(_ closures: [KeptClosure], by owner: ClosureOwner, object: AnyObject)

    /// The subscription released its observer closures and whatever they capture.
    func observerReleased(_ subscription: SubscriptionID)

    /// Whether the hook still wants values, checked by subscriptions before each
    /// ``nextDelivered(_:value:)``; `nil` (the default) passes every value.
    var activity: InstrumentationActivity? { get }

    /// A value is being delivered to the subscription's observer: the hook calls `deliver`,
    /// which runs the observer, exactly once, before it returns.
    ///
    /// What the observer does on this thread meanwhile (sending on to other subscriptions,
    /// subscribing, disposing, scheduling) happens during this event and because of it: a
    /// hook that records causes notes the event as the cause of what it hears until
    /// `deliver` returns.
    func nextDelivered<Value>(_ subscription: SubscriptionID, value: Value, deliver: () -> Void)

    /// An error is being delivered to the subscription's observer, ending it: the hook
    /// calls `deliver` exactly once (see ``nextDelivered(_:value:deliver:)``).
    func errorDelivered(_ subscription: SubscriptionID, error: any Error, deliver: () -> Void)

    /// Completion is being delivered to the subscription's observer, ending it: the hook
    /// calls `deliver` exactly once (see ``nextDelivered(_:value:deliver:)``).
    func completedDelivered(_ subscription: SubscriptionID, deliver: () -> Void)

    /// A value is about to be delivered to the subscription's observer: a delivery begins,
    /// and ends when ``deliveryEnded(_:)`` is called, on this thread, with the token this
    /// returns. What the thread does in between is caused by the value, as with
    /// ``nextDelivered(_:value:deliver:)``. For a library that reports will/did pairs
    /// rather than running the observer inside the hook (rule I12 of `docs/semantics.md`).
    func nextWillBeDelivered<Value>(_ subscription: SubscriptionID, value: Value) -> DeliveryToken

    /// An error is about to be delivered to the subscription's observer, ending it (see
    /// ``nextWillBeDelivered(_:value:)``).
    func errorWillBeDelivered(_ subscription: SubscriptionID, error: any Error) -> DeliveryToken

    /// Completion is about to be delivered to the subscription's observer, ending it (see
    /// ``nextWillBeDelivered(_:value:)``).
    func completedWillBeDelivered(_ subscription: SubscriptionID) -> DeliveryToken

    /// The delivery that returned `token` has ended: called once per delivery, on the thread
    /// it began on, deliveries nested inside it having ended first.
    func deliveryEnded(_ token: DeliveryToken)

    /// A scheduler is taking an action to run later, on this thread or another. What the
    /// hook returns comes back to ``scheduledActionRuns(_:run:)`` when the action runs, so
    /// that a hook recording causes can carry the event in progress now (a `delay`, a
    /// `deliverOn`) across the hop.
    func actionScheduled() -> (any Sendable)?

    /// A scheduled action is running: the hook calls `run` exactly once. `scheduled` is
    /// what ``actionScheduled()`` returned for it.
    func scheduledActionRuns(_ scheduled: (any Sendable)?, run: () -> Void)

    /// A scheduled action is about to run: it begins, and ends when
    /// ``scheduledActionEnded(_:)`` is called, on this thread, with the token this returns;
    /// in between the thread is inside the action as inside ``scheduledActionRuns(_:run:)``.
    /// For a library whose scheduler hop is seen only as what goes in and what comes out (an
    /// adapter that matches a `receive(on:)`'s delivery downstream with the event that
    /// scheduled it). `scheduled` is what ``actionScheduled()`` returned for it.
    func scheduledActionWillRun(_ scheduled: (any Sendable)?) -> DeliveryToken

    /// The scheduled action that returned `token` has ended: called once, on the thread it
    /// began on, after what began inside it has ended.
    func scheduledActionEnded(_ token: DeliveryToken)

    /// A cold signal's creation block (its work: a `createSignal` block, a `defer` factory,
    /// an `interval` timer being set) is running for the subscription, just made: the hook
    /// calls `run` exactly once. What the block sends now, and what actions it schedules
    /// send later, is that run's own work rather than events it forwards; a hook telling
    /// work repeated for several consumers from one event delivered to each notes it here.
    func creationBlockRuns(for subscription: SubscriptionID, run: () -> Void)

    /// A cold signal's creation block (its work) is about to run for the subscription: the
    /// run begins, and ends when ``creationBlockEnded(_:)`` is called, on this thread, with
    /// the token this returns. What the thread sends in between is that run's own work, as
    /// inside ``creationBlockRuns(for:run:)``. For a library that reports a subscribe before
    /// and after it rather than running it inside the hook (rule I12): a `Deferred`'s
    /// factory runs inside its subscribe.
    func creationBlockWillRun(for subscription: SubscriptionID) -> DeliveryToken

    /// The creation block's run that returned `token` has ended: called once per run, on the
    /// thread it began on, the deliveries and runs nested inside it having ended first.
    func creationBlockEnded(_ token: DeliveryToken)

    /// The program was handed `disposable`, the object that ends the subscription (the
    /// cancellable a library's `sink` returns), by a library whose subscription does not keep
    /// it: freed while the subscription goes on, it was dropped, and nothing can end the
    /// subscription any more. SignalScope's runtime does not call it: its subscriptions keep
    /// their disposables, which a tracer reads from them.
    func disposableReturned(_ disposable: AnyObject, for subscription: SubscriptionID)

    /// The subscription was disposed; `cause` says what disposed it.
    func disposed(_ subscription: SubscriptionID, cause: DisposalCause)

    /// The subscription's subscriber asked for more values (back-pressure, for a library that
    /// has it: Combine's `request(_:)`, and the demand a subscriber returns as it receives a
    /// value). SignalScope's runtime sends every value it has and never calls this.
    func demandRequested(_ subscription: SubscriptionID, demand: SubscriptionDemand)

    /// An event was sent after a terminal event and dropped: a grammar violation.
    func eventDropped(_ violation: DroppedEvent)

    /// A node that ends when told to (a subject, or a library's subject) was sent its
    /// terminal event: from now on it keeps no subscriber. Reported once; a tool judging the
    /// subjects that never ended (`never-completed-subject`) hears it here, whatever library
    /// the subject is of.
    func nodeTerminated(_ node: NodeID)

    /// A ``TestScheduler``'s virtual clock reads `now`: reported when the scheduler is made
    /// and before each action it runs, so what follows happens then in the test's time,
    /// whatever the wall clock says.
    func virtualTimeReached(_ now: Date)
}

// Every hook has a default, so a tool implements only what it looks at, and a hook added
// to the seam breaks no conformer: the notifications do nothing, the scheduled actions just
// run, and a delivery runs between the hook's beginning and end of it (which do nothing by
// default), so that a hook implements the delivery once, in whichever form it prefers.
extension SignalInstrumentation {
    /// Watches everything the process does.
    public func watchesCurrentCode() -> Bool { true }

    /// Does nothing.
    public func nodeCreated(_ node: NodeDescriptor, object: AnyObject) {}

    /// Does nothing.
    public func nodeNamed(_ node: NodeID, name: String) {}

    /// Does nothing.
    public func edgeAdded(_ edge: NodeEdge, to node: NodeID) {}

    /// Does nothing.
    public func subscribed(_ subscription: SubscriptionDescriptor, object: AnyObject) {}

    /// Does nothing.
    public func observerStored(_ subscription: SubscriptionID, closures: ObserverClosures) {}

    /// Does nothing.
    public func observerReleased(_ subscription: SubscriptionID) {}

    /// Delivers the value between the hook's beginning and end of the delivery.
    public func nextDelivered<Value>(_ subscription: SubscriptionID, value: Value, deliver: () -> Void) {
        let token = nextWillBeDelivered(subscription, value: value)
        deliver()
        deliveryEnded(token)
    }

    /// Delivers the error between the hook's beginning and end of the delivery.
    public func errorDelivered(_ subscription: SubscriptionID, error: any Error, deliver: () -> Void) {
        let token = errorWillBeDelivered(subscription, error: error)
        deliver()
        deliveryEnded(token)
    }

    /// Delivers the completion between the hook's beginning and end of the delivery.
    public func completedDelivered(_ subscription: SubscriptionID, deliver: () -> Void) {
        let token = completedWillBeDelivered(subscription)
        deliver()
        deliveryEnded(token)
    }

    /// Begins nothing.
    public func nextWillBeDelivered<Value>(_ subscription: SubscriptionID, value: Value) -> DeliveryToken { .none }

    /// Begins nothing.
    public func errorWillBeDelivered(_ subscription: SubscriptionID, error: any Error) -> DeliveryToken { .none }

    /// Begins nothing.
    public func completedWillBeDelivered(_ subscription: SubscriptionID) -> DeliveryToken { .none }

    /// Ends nothing.
    public func deliveryEnded(_ token: DeliveryToken) {}

    /// Does nothing.
    public func disposed(_ subscription: SubscriptionID, cause: DisposalCause) {}

    /// Does nothing.
    public func demandRequested(_ subscription: SubscriptionID, demand: SubscriptionDemand) {}

    /// Does nothing.
    public func eventDropped(_ violation: DroppedEvent) {}

    /// Does nothing.
    public func nodeTerminated(_ node: NodeID) {}

    /// Does nothing.
    public func nodeDeinitialized(_ node: NodeID) {}

    /// Does nothing.
    public func subscriptionDeinitialized(_ subscription: SubscriptionID) {}

    /// Does nothing: hooks that do not look at closures need not implement it.
    public func closuresKept(_ closures: [KeptClosure], by owner: ClosureOwner, object: AnyObject) {}

    /// None: every value is passed to the hook, which decides.
    public var activity: InstrumentationActivity? { nil }

    /// Does nothing: hooks that do not draw time need not implement it.
    public func virtualTimeReached(_ now: Date) {}

    /// Nothing: hooks that record no causes need not carry anything across schedulers.
    public func actionScheduled() -> (any Sendable)? { nil }

    /// Runs the action between the hook's beginning and end of it.
    public func scheduledActionRuns(_ scheduled: (any Sendable)?, run: () -> Void) {
        let token = scheduledActionWillRun(scheduled)
        run()
        scheduledActionEnded(token)
    }

    /// Nothing.
    public func disposableReturned(_ disposable: AnyObject, for subscription: SubscriptionID) {}

    /// Begins nothing.
    public func scheduledActionWillRun(_ scheduled: (any Sendable)?) -> DeliveryToken { .none }

    /// Ends nothing.
    public func scheduledActionEnded(_ token: DeliveryToken) {}

    /// Runs the block between the hook's beginning and end of its run.
    public func creationBlockRuns(for subscription: SubscriptionID, run: () -> Void) {
        let token = creationBlockWillRun(for: subscription)
        run()
        creationBlockEnded(token)
    }

    /// Begins nothing.
    public func creationBlockWillRun(for subscription: SubscriptionID) -> DeliveryToken { .none }

    /// Ends nothing.
    public func creationBlockEnded(_ token: DeliveryToken) {}
}

/// What one observer stored: its closures, read from where the subscription stores them
/// (a closure is a function pointer and a context; the context is what keeps captured
/// objects alive), with the roles `next`, `error` and `completed`.
public struct ObserverClosures: Sendable {
    /// The closures the observer has, valid while the subscription holds its observer.
    public var closures: [KeptClosure] { stored?.closures ?? listed }
    /// Which events the observer handles (a closure of its own for them): what tells a failure
    /// the observer takes from one nobody handles.
    public let handles: ObserverEvents
    /// The closures as a library listed them.
    private let listed: [KeptClosure]
    /// The closures of an observer as the runtime stores it, in plain words: a tracer keeps
    /// them so, where a list of them cost each subscription an array and its freeing.
    package let stored: StoredObserver?
    /// Describes an observer by its closures: it handles the events it has closures for.
    public init(closures: [KeptClosure]) {
        listed = closures
        stored = nil
        var handles: ObserverEvents = []
        for closure in closures {
            switch closure.role {
            case .next: handles.insert(.next)
            case .error: handles.insert(.error)
            case .completed: handles.insert(.completed)
            default: break
            }
        }
        self.handles = handles
    }

    /// Describes an observer by the events it handles, and the closures it has, if the
    /// library keeps them as the runtime does: for an adapter, whose library says whether a
    /// subscriber handles failure (a `sink` with `receiveCompletion`) without closures a
    /// tracer could read.
    public init(handles: ObserverEvents, closures: [KeptClosure] = []) {
        listed = closures
        stored = nil
        self.handles = handles
    }

    /// Describes an observer as the runtime stores it: its closures for the events it handles,
    /// with the roles `next`, `error` and `completed`, all passed at one site.
    package init(stored: StoredObserver) {
        listed = []
        self.stored = stored
        handles = stored.handles
    }

    /// Whether the observer handles values.
    public var hasNext: Bool { handles.contains(.next) }
    /// Whether the observer handles an error.
    public var hasError: Bool { handles.contains(.error) }
    /// Whether the observer handles completion.
    public var hasCompleted: Bool { handles.contains(.completed) }
    /// How many closures the observer has.
    public var count: Int { stored == nil ? listed.count : handles.rawValue.nonzeroBitCount }
}

/// An observer's closures as the runtime stores them: the two words of each (a function
/// pointer of 0 for a closure it does not have) and the one site they were passed at.
package struct StoredObserver: Sendable, BitwiseCopyable {
    /// One closure's words, read where it is stored (see the initializers beside
    /// ``KeptClosure``'s).
    package struct Words: Sendable, BitwiseCopyable {
        let function: UInt
        let context: UInt
    }

    let site: SourceLocation
    let next: Words
    let error: Words
    let completed: Words

    /// The events it has closures for.
    var handles: ObserverEvents {
        var handles: ObserverEvents = []
        if next.function != 0 { handles.insert(.next) }
        if error.function != 0 { handles.insert(.error) }
        if completed.function != 0 { handles.insert(.completed) }
        return handles
    }

    /// Its closures, listed.
    package var closures: [KeptClosure] {
        [(ClosureRole.next, next), (.error, error), (.completed, completed)].compactMap { role, words in
            words.function == 0 ? nil : KeptClosure(role: role, site: site, function: words.function, context: words.context)
        }
    }
}

/// The events an observer may handle.
public struct ObserverEvents: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let next = ObserverEvents(rawValue: 1)
    /// An error (a failure, in Combine's words).
    public static let error = ObserverEvents(rawValue: 2)
    public static let completed = ObserverEvents(rawValue: 4)
    /// Every event.
    public static let all: ObserverEvents = [.next, .error, .completed]
}

/// What kind of node a ``NodeDescriptor`` describes.
public enum NodeKind: String, Sendable, Hashable, CaseIterable {
    /// A cold signal made with `Signal { subscriber in ... }` or a factory such as `just`.
    case signal
    /// A ``Subject``.
    case subject
    /// A ``ReplaySubject``.
    case replaySubject
    /// A ``BehaviorSubject``.
    case behaviorSubject
    /// The signal of a ``MutableProperty``.
    case property
    /// The `ended` signal of a ``Lifetime``.
    case lifetime
    /// An operator stage, such as `map` or `merge`.
    case `operator`
    /// A command's signal.
    case command
}

/// How a node depends on one of its parents.
public enum EdgeKind: String, Sendable, Hashable {
    /// Values flow from the parent into the node (`map`'s source, each of `merge`'s inputs).
    case data
    /// The parent only controls the node's lifetime or timing (`takeUntil`'s trigger).
    case control
}

/// One parent of a node in the operator graph.
public struct NodeEdge: Sendable, Hashable {
    /// The node the edge comes from.
    public let parent: NodeID
    /// Whether values or only control flow along the edge.
    public let kind: EdgeKind

    /// Creates an edge from `parent`.
    public init(parent: NodeID, kind: EdgeKind) {
        self.parent = parent
        self.kind = kind
    }
}

/// What a hook hands from a delivery's beginning
/// (``SignalInstrumentation/nextWillBeDelivered(_:value:)`` and its kin) to its end
/// (``SignalInstrumentation/deliveryEnded(_:)``): the hook's own words, opaque to the library
/// that carries them, so that a hook needs no state of its own per delivery.
public struct DeliveryToken: Sendable {
    /// Words the hook chose.
    public let first: UInt64
    public let second: UInt64
    /// An object the hook chose, for what two words cannot hold (a hook that forwards to
    /// several keeps their tokens in it).
    public let context: (any AnyObject & Sendable)?

    /// A token of the hook's words.
    public init(first: UInt64 = 0, second: UInt64 = 0, context: (any AnyObject & Sendable)? = nil) {
        self.first = first
        self.second = second
        self.context = context
    }

    /// The token of a delivery the hook did not note: its end does nothing.
    public static var none: DeliveryToken { DeliveryToken() }
}

/// Everything the runtime knows about a node when it is created.
public struct NodeDescriptor: Sendable, Hashable {
    /// The node's identifier.
    public let id: NodeID
    /// What kind of node it is.
    public let kind: NodeKind
    /// The RAC-style name of what made the node: `createSignal`, `just`, `map`, `merge`, ...
    public let name: String
    /// Where the user's code created it.
    public let site: SourceLocation
    /// The operator graph's edges into this node.
    public let parents: [NodeEdge]
    /// What the node means for its subscriptions, as the code that made it declares.
    public let traits: NodeTraits
    /// For a library's node, its type in the library's own words and the part it plays
    /// (`Publishers.Map`, an operator), beside ``kind``; `nil` for the runtime's own, whose
    /// kind and name are its words already.
    public let library: LibraryType?
    /// Whether the node's object calls ``SignalInstrumentation/nodeDeinitialized(_:)`` from
    /// its deinit, before its memory is freed, so that a tool need not hold it even weakly
    /// (a weak reference gives an object a side table and slows every retain of it). The
    /// runtime's nodes do; a library's adapter, whose objects are the library's, says no.
    public let reportsDeinit: Bool

    /// Describes a node as the runtime, or a library's adapter, reports it.
    public init(
        id: NodeID, kind: NodeKind, name: String, site: SourceLocation, parents: [NodeEdge], traits: NodeTraits = [],
        library: LibraryType? = nil, reportsDeinit: Bool = false
    ) {
        self.id = id
        self.kind = kind
        self.name = name
        self.site = site
        self.parents = parents
        self.traits = traits
        self.library = library
        self.reportsDeinit = reportsDeinit
    }
}

/// Everything the runtime knows about a subscription when it is made.
public struct SubscriptionDescriptor: Sendable, Hashable {
    /// The subscription's identifier.
    public let id: SubscriptionID
    /// The node subscribed to.
    public let node: NodeID
    /// Where the user's code subscribed (for operator-internal subscriptions, where the
    /// operator was applied).
    public let site: SourceLocation
    /// The subscription whose creation block made this one, if any: in
    /// `a.map(f).subscribe(...)`, the subscription to `a` has the one to `map` as parent.
    public let parent: SubscriptionID?
    /// For a property binding (``MutableProperty/bind(to:file:line:function:)``): the node of
    /// the property whose value it sets.
    public let bindingTarget: NodeID?
    /// For a library's subscriber, its type in the library's own words and the part it plays
    /// (`Subscribers.Sink`, a sink; `Subscribers.Assign`, an assignment).
    public let subscriber: LibraryType?
    /// Whether the subscription's object calls
    /// ``SignalInstrumentation/subscriptionDeinitialized(_:)`` from its deinit, before its
    /// memory is freed (see ``NodeDescriptor/reportsDeinit``).
    public let reportsDeinit: Bool

    /// Describes a subscription as the runtime, or a library's adapter, reports it.
    public init(
        id: SubscriptionID, node: NodeID, site: SourceLocation, parent: SubscriptionID?, bindingTarget: NodeID? = nil,
        subscriber: LibraryType? = nil, reportsDeinit: Bool = false
    ) {
        self.id = id
        self.node = node
        self.site = site
        self.parent = parent
        self.bindingTarget = bindingTarget
        self.subscriber = subscriber
        self.reportsDeinit = reportsDeinit
    }
}

/// What a library calls one of its types, and the part the type plays: a node or a
/// subscriber in the library's own words, beside the closed set of ``NodeKind``s.
public struct LibraryType: Sendable, Hashable {
    /// The type's name in the library, without generic arguments (`Publishers.Map`).
    public let name: String
    public let role: LibraryRole

    public init(name: String, role: LibraryRole) {
        self.name = name
        self.role = role
    }
}

/// The part a library's type plays; open, like the libraries.
public struct LibraryRole: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// Shares one stream among its subscribers, sent to from outside (`PassthroughSubject`).
    public static let subject = LibraryRole(rawValue: "subject")
    /// Makes values of its own (`Just`, `Future`, `Deferred`, a timer).
    public static let source = LibraryRole(rawValue: "source")
    /// Transforms or combines what its upstreams send (`map`, `flatMap`, `zip`).
    public static let `operator` = LibraryRole(rawValue: "operator")
    /// Moves delivery to a scheduler (`receive(on:)`, `subscribe(on:)`, `debounce`, `delay`).
    public static let schedulerHop = LibraryRole(rawValue: "scheduler hop")
    /// Ends a chain in closures (`sink`).
    public static let sink = LibraryRole(rawValue: "sink")
    /// Ends a chain in a property it sets (`assign(to:on:)`).
    public static let assignment = LibraryRole(rawValue: "assignment")
    /// Any other subscriber (an operator's inner one, the program's own).
    public static let subscriber = LibraryRole(rawValue: "subscriber")
}

/// How many more values a subscriber asked for.
public enum SubscriptionDemand: Sendable, Hashable, CustomStringConvertible {
    /// Any number.
    case unlimited
    /// At most this many more.
    case max(Int)

    public var description: String {
        switch self {
        case .unlimited: "unlimited"
        case .max(let count): "max(\(count))"
        }
    }
}

/// Why a subscription was disposed.
public enum DisposalCause: UInt8, Sendable, Hashable, CaseIterable {
    /// Someone called `dispose()` on its disposable.
    case explicit = 1
    /// It received `error` or `completed`.
    case terminal
    /// A ``ScopedDisposable`` holding it was deinitialized.
    case scopedDeinit
    /// A downstream subscription that depends on it was disposed or terminated.
    case upstream
}

/// An event sent after a terminal event; the runtime dropped it.
public struct DroppedEvent: Sendable, Hashable {
    /// Which event was dropped.
    public enum Kind: String, Sendable, Hashable {
        case next, error, completed
    }

    /// Which event was dropped.
    public let kind: Kind
    /// The node it was sent to: the subject, or the signal whose subscriber received it.
    public let node: NodeID
    /// The subscription it was sent to, or `nil` when it was sent to a subject.
    public let subscription: SubscriptionID?

    /// Describes an event dropped after a terminal event.
    public init(kind: Kind, node: NodeID, subscription: SubscriptionID?) {
        self.kind = kind
        self.node = node
        self.subscription = subscription
    }
}
