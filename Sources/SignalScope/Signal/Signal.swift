/// A stream of events: `next* (error | completed)?` (RACSignal).
///
/// A `Signal` made with a creation block is cold: the block runs once per subscription, so
/// its side effects (a network request, say) repeat for every subscriber. Subjects
/// (``Subject``, ``ReplaySubject``, ``BehaviorSubject``) are hot signals that share one
/// stream among all subscribers.
///
/// ```swift
/// let numbers = Signal<Int> { subscriber in
///     subscriber.sendNext(1)
///     subscriber.sendCompleted()
///     return Disposable { print("cleaned up") }
/// }
/// numbers.subscribeNext { print($0) }
/// ```
///
/// A subscription keeps its signal alive until it ends; the signal does not keep its
/// subscribers. See `docs/semantics.md` for the full contract.
public class Signal<Value>: @unchecked Sendable {
    /// The node's identity in traces and graphs.
    public let id: NodeID
    private let didSubscribe: ((Subscriber<Value>) -> Disposable?)?
    /// Whether subscribing runs work of the signal's own (``NodeTraits/cold``), which the
    /// hooks hear about (``SignalInstrumentation/creationBlockRuns(for:run:)``).
    private let isCold: Bool
    /// The hooks picked when the node was made, which hear every call about it (its name, a
    /// subject's dropped event, an edge added later): rule I10.
    let hook: (any SignalInstrumentation)?

    /// Creates a cold signal whose `didSubscribe` block runs for every subscription
    /// (RAC `+createSignal:`).
    ///
    /// - Parameter didSubscribe: Receives the new subscription's ``Subscriber``, sends it
    ///   events (now or later, from any thread), and returns a disposable that cleans up
    ///   when the subscription ends, or `nil`.
    public convenience init(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        _ didSubscribe: @escaping (Subscriber<Value>) -> Disposable?
    ) {
        self.init(
            kind: .signal, name: "createSignal", traits: .cold,
            site: SourceLocation(fileID: file, line: line, function: function),
            didSubscribe: didSubscribe)
    }

    /// The designated initializer for every node: reports the node to the instrumentation,
    /// with the closures it keeps (its creation block, and `closures`: an operator's own).
    /// `parents` and `closures` are only evaluated when a hook is installed.
    init(
        kind: NodeKind, name: String, traits: NodeTraits = [], parents: @autoclosure () -> [NodeEdge] = [],
        site: SourceLocation, didSubscribe: ((Subscriber<Value>) -> Disposable?)?,
        keeping closures: @autoclosure () -> [KeptClosure] = []
    ) {
        id = .next()
        self.didSubscribe = didSubscribe
        isCold = traits.contains(.cold)
        hook = Instrumentation.current
        guard let hook else { return }
        hook.nodeCreated(
            NodeDescriptor(id: id, kind: kind, name: name, site: site, parents: parents(), traits: traits, reportsDeinit: true),
            object: self)
        var kept = closures()
        if let didSubscribe { kept.append(KeptClosure(kind == .operator ? .stage : .creationBlock, site, didSubscribe)) }
        if !kept.isEmpty { hook.closuresKept(kept, by: .node(id), object: self) }
    }

    // Rule I17: the hooks that heard of the node hear of its end, so they need not hold it.
    deinit {
        hook?.nodeDeinitialized(id)
    }

    /// For a subject: whether it has sent its terminal event; `nil` for other signals. (The
    /// sharing operators ask it; a tracer hears of it through
    /// ``SignalInstrumentation/nodeTerminated(_:)``.)
    package var hasTerminated: Bool? { nil }

    /// Connects a new subscriber to this signal. Subjects override it.
    func attach(_ subscriber: Subscriber<Value>) {
        subscriber.add(didSubscribe?(subscriber))
    }

    /// Subscribes `observer`; `prepare` runs after the subscription exists and before the
    /// signal starts sending to it, to hand its disposable to whoever will end it.
    ///
    /// A subscription that `prepare` has already ended (its owner had ended) never starts:
    /// the signal's creation block does not run for it (semantics rule O38).
    @discardableResult
    func subscribe(
        _ observer: Observer<Value>, site: SourceLocation,
        prepare: (Subscriber<Value>) -> Void = { _ in }
    ) -> Disposable {
        let subscriber = Subscriber(observer: observer, source: self, site: site)
        prepare(subscriber)
        guard !subscriber.isDisposed else { return subscriber.disposable }
        if subscriber.id == .untraced {
            attach(subscriber)
        } else {
            Instrumentation.currentSubscription.with(UInt(subscriber.id.rawValue)) {
                if isCold { subscriber.runningCreationBlock { attach(subscriber) } } else { attach(subscriber) }
            }
        }
        return subscriber.disposable
    }

    /// Subscribes `observer` on behalf of an operator's downstream subscription, whose
    /// disposable is `owner`: `hold` gives the new subscription to the owner (or to a
    /// disposable the owner holds) before this signal starts sending, so that the owner
    /// ending, even during this very subscription, ends it and stops its events at once.
    /// Nothing is subscribed when `owner` has already ended.
    ///
    /// Every operator subscribes through here; this is what makes RAC's checks for
    /// disposal after each synchronous step (`bind:`, `takeUntil:`) hold for all of them.
    func subscribe(
        _ observer: Observer<Value>, site: SourceLocation,
        owner: Disposable, hold: (Disposable) -> Void
    ) {
        guard !owner.isDisposed else { return }
        subscribe(observer, site: site, prepare: { hold($0.disposable) })
    }
}

extension Signal: CustomStringConvertible {
    /// `Signal(n12)`: the node, as traces and graphs name it.
    public var description: String { "Signal(\(id))" }
}

extension Signal {
    /// Subscribes with closures for any of the three events (RAC
    /// `-subscribeNext:error:completed:`); every label is optional.
    ///
    /// - Returns: A disposable that ends the subscription: the observer stops receiving
    ///   events and its closures, and whatever they capture, are released.
    @discardableResult
    public func subscribe(
        next: ((Value) -> Void)? = nil,
        error: ((any Error) -> Void)? = nil,
        completed: (() -> Void)? = nil,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Disposable {
        subscribe(
            Observer(next: next, error: error, completed: completed),
            site: SourceLocation(fileID: file, line: line, function: function))
    }

    /// Subscribes to values only (RAC `-subscribeNext:`).
    @discardableResult
    public func subscribeNext(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        _ next: @escaping (Value) -> Void
    ) -> Disposable {
        subscribe(next: next, file: file, line: line, function: function)
    }

    /// Subscribes to the error only (RAC `-subscribeError:`).
    @discardableResult
    public func subscribeError(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        _ error: @escaping (any Error) -> Void
    ) -> Disposable {
        subscribe(error: error, file: file, line: line, function: function)
    }

    /// Subscribes to completion only (RAC `-subscribeCompleted:`).
    @discardableResult
    public func subscribeCompleted(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        _ completed: @escaping () -> Void
    ) -> Disposable {
        subscribe(completed: completed, file: file, line: line, function: function)
    }

    /// Forwards every event into `target`, for example a ``Subject`` (RAC `-subscribe:`).
    ///
    /// `target` receives the subscription's disposable through
    /// ``SubscriberProtocol/didSubscribe(with:)`` before the first event, so it can stop the
    /// forwarding: a subject does when it terminates, a ``Subscriber`` when it ends.
    @discardableResult
    public func subscribe<Target: SubscriberProtocol<Value>>(
        _ target: Target,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Disposable {
        subscribe(target, site: SourceLocation(fileID: file, line: line, function: function))
    }

    /// Forwards every event into `target`; `hold` also receives the subscription's
    /// disposable before the first event, for an owner besides `target`.
    @discardableResult
    func subscribe<Target: SubscriberProtocol<Value>>(
        _ target: Target, site: SourceLocation, hold: (Disposable) -> Void = { _ in }
    ) -> Disposable {
        subscribe(
            Observer(
                next: { target.sendNext($0) },
                error: { target.sendError($0) },
                completed: { target.sendCompleted() }),
            site: site,
            prepare: { subscription in
                hold(subscription.disposable)
                target.didSubscribe(with: subscription.disposable)
            })
    }
}
