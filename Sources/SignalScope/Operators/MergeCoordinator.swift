import DequeModule

/// Subscribes to inner signals for one downstream subscriber, at most `maxConcurrent` at a
/// time, queueing the rest in arrival order; completes downstream once the outer source is
/// done and every inner signal has completed. Any error ends everything.
///
/// The engine of `flatten`, `flattenMap`, `concat`, `merge` and `bind`.
final class MergeCoordinator<Output>: @unchecked Sendable {
    private struct State {
        var active = 0
        var waiting = Deque<Signal<Output>>()
        var outerDone = false
        /// Subscribing to an inner signal can complete another synchronously; starting the
        /// next one from a trampoline keeps `concat` of many such signals off the stack.
        var starts = Trampoline<Signal<Output>>()
    }

    private let downstream: Subscriber<Output>
    private let maxConcurrent: Int
    private let site: SourceLocation
    private let lock = StateLock()
    @exclusivity(unchecked) private var state = State()
    private let inners = CompoundDisposable()

    init(downstream: Subscriber<Output>, maxConcurrent: Int, site: SourceLocation) {
        self.downstream = downstream
        self.maxConcurrent = maxConcurrent
        self.site = site
        downstream.add(inners)
    }

    /// Adds an inner signal: subscribes now if there is room, else queues it.
    /// `reportEdge` is false when the signal is already a declared parent of the node.
    func add(_ inner: Signal<Output>, reportEdge: Bool = true) {
        if reportEdge { downstream.reportEdge(from: inner.id, kind: .data) }
        let hasRoom = lock.withLock {
            guard state.active < maxConcurrent else {
                state.waiting.append(inner)
                return false
            }
            state.active += 1
            return true
        }
        if hasRoom { start(inner) }
    }

    /// The outer source will add nothing more.
    func outerCompleted() {
        let done = lock.withLock {
            state.outerDone = true
            return state.active == 0
        }
        if done { downstream.sendCompleted() }
    }

    private func start(_ inner: Signal<Output>) {
        guard lock.withLock({ state.starts.enter(inner) }) else { return }
        var next: Signal<Output>? = inner
        while let signal = next {
            subscribe(signal)
            next = lock.withLock { state.starts.next() }
        }
    }

    private func subscribe(_ inner: Signal<Output>) {
        let downstream = downstream
        var handle: Disposable?
        downstream.makingSubscriptions {
            inner.subscribe(
                Observer(
                    next: { downstream.sendNext($0) },
                    error: { downstream.sendError($0) },
                    completed: { [self] in innerCompleted(handle) }),
                site: site, owner: downstream.disposable,
                hold: { [inners] subscription in
                    handle = subscription
                    inners.add(subscription)
                })
        }
    }

    private func innerCompleted(_ handle: Disposable?) {
        if let handle { inners.remove(handle) }
        let (next, done) = lock.withLock { () -> (Signal<Output>?, Bool) in
            if let waiting = state.waiting.popFirst() { return (waiting, false) }
            state.active -= 1
            return (nil, state.outerDone && state.active == 0)
        }
        if let next {
            start(next)
        } else if done {
            downstream.sendCompleted()
        }
    }
}

extension Signal {
    /// The stage behind `flatten`, `flattenMap` and `concat()`: every value becomes an inner
    /// signal, merged with at most `maxConcurrent` subscribed at once.
    func mergeStage<Output>(
        _ name: String, maxConcurrent: Int, site: SourceLocation,
        _ transform: @escaping (Value) -> Signal<Output>
    ) -> Signal<Output> {
        Signal<Output>(operator: name, parents: [dataEdge], site: site, keeping: [KeptClosure(.transform, site, transform)]) {
            subscriber in
            let coordinator = MergeCoordinator(downstream: subscriber, maxConcurrent: maxConcurrent, site: site)
            self.forward(
                to: subscriber, site: site,
                next: { coordinator.add(transform($0)) },
                completed: { coordinator.outerCompleted() })
            return nil
        }
    }

    /// The stage behind `merge` and `concat(_:)`: the given signals, merged with at most
    /// `maxConcurrent` subscribed at once.
    static func mergeStage(
        _ name: String, _ signals: [Signal<Value>], maxConcurrent: Int, site: SourceLocation
    ) -> Signal<Value> {
        Signal(operator: name, parents: signals.map(\.dataEdge), site: site) { subscriber in
            let coordinator = MergeCoordinator(downstream: subscriber, maxConcurrent: maxConcurrent, site: site)
            for signal in signals { coordinator.add(signal, reportEdge: false) }
            coordinator.outerCompleted()
            return nil
        }
    }
}
