
/// Keeps one downstream subscriber subscribed to the latest inner signal only, disposing
/// the previous one on every switch. Completes once the outer source and the latest inner
/// signal have completed. The engine of `switchToLatest` and `Signal.if`.
final class SwitchCoordinator<Output>: @unchecked Sendable {
    private let downstream: Subscriber<Output>
    private let site: SourceLocation
    // Non-generic, so the per-value generation check costs no metadata lookup.
    private let lock = StateLock()
    @exclusivity(unchecked) private var state = SwitchState()
    private let current = SerialDisposable()

    init(downstream: Subscriber<Output>, site: SourceLocation) {
        self.downstream = downstream
        self.site = site
        downstream.add(current)
    }

    /// Disposes the current inner signal's subscription and subscribes to `inner`.
    func switchTo(_ inner: Signal<Output>, reportEdge: Bool = true) {
        if reportEdge { downstream.reportEdge(from: inner.id, kind: .data) }
        current.inner = nil
        let generation = lock.withLock {
            state.generation += 1
            state.innerActive = true
            return state.generation
        }
        let downstream = downstream
        // Outer events are serialized, so no other switch can happen until this returns;
        // the generation only guards against a replaced inner's event already in flight.
        downstream.makingSubscriptions {
            inner.subscribe(
                Observer(
                    next: { [self] value in if isCurrent(generation) { downstream.sendNext(value) } },
                    error: { [self] error in if isCurrent(generation) { downstream.sendError(error) } },
                    completed: { [self] in innerCompleted(generation) }),
                site: site, owner: downstream.disposable, hold: { [current] in current.inner = $0 })
        }
    }

    /// The outer source will switch no more.
    func outerCompleted() {
        let done = lock.withLock {
            state.outerDone = true
            return !state.innerActive
        }
        if done { downstream.sendCompleted() }
    }

    private func isCurrent(_ generation: Int) -> Bool {
        lock.withLock { state.generation == generation }
    }

    private func innerCompleted(_ generation: Int) {
        let done = lock.withLock {
            guard state.generation == generation else { return false }
            state.innerActive = false
            return state.outerDone
        }
        if done { downstream.sendCompleted() }
    }
}

/// Which inner signal is current, and what has completed.
struct SwitchState {
    var generation = 0
    var innerActive = false
    var outerDone = false
}

extension Signal where Value: SignalProtocol {
    /// Forwards the values of the latest inner signal only: each new inner signal disposes
    /// the subscription to the previous one (RAC `switchToLatest`), which is how a new
    /// search cancels the request before it. Completes when this signal and the latest inner
    /// signal have completed; an error from either fails it.
    public func switchToLatest(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Value.Element> {
        let site = SourceLocation(file, line, function)
        return Signal<Value.Element>(operator: "switchToLatest", parents: [controlEdge], site: site) { subscriber in
            let coordinator = SwitchCoordinator(downstream: subscriber, site: site)
            self.forward(
                to: subscriber, site: site,
                next: { coordinator.switchTo($0.asSignal) },
                completed: { coordinator.outerCompleted() })
            return nil
        }
    }
}
