// Shared machinery of the operators: every operator is a node downstream of its inputs,
// and most subscribe upstream on behalf of one downstream subscriber.

extension Signal {
    /// Creates an operator stage named `name` (the RAC selector's name, as graphs show it),
    /// with the `traits` that say what it means for its subscriptions, which keeps
    /// `closures` (the user's closures it was given). `parents` and `closures` are evaluated
    /// only when a hook is installed.
    convenience init(
        operator name: String, traits: NodeTraits = [], parents: @autoclosure () -> [NodeEdge], site: SourceLocation,
        keeping closures: @autoclosure () -> [KeptClosure] = [],
        _ didSubscribe: @escaping (Subscriber<Value>) -> Disposable?
    ) {
        self.init(
            kind: .operator, name: name, traits: traits, parents: parents(), site: site, didSubscribe: didSubscribe, keeping: closures())
    }

    /// This signal as a data parent.
    var dataEdge: NodeEdge { NodeEdge(parent: id, kind: .data) }

    /// This signal as a control parent (it only decides when the child stops or switches).
    var controlEdge: NodeEdge { NodeEdge(parent: id, kind: .control) }

    /// Subscribes on behalf of an operator whose downstream subscriber is `downstream`,
    /// which holds the subscription from before this signal starts sending (see
    /// ``subscribe(_:site:owner:hold:)``): `next` is the operator's own, and errors and
    /// completion pass straight through unless the operator handles them itself. Returns
    /// nothing: the downstream already holds the subscription, so an operator's creation
    /// block returns only resources of its own.
    func forward<Output>(
        to downstream: Subscriber<Output>, site: SourceLocation,
        next: @escaping (Value) -> Void,
        error: ((any Error) -> Void)? = nil,
        completed: (() -> Void)? = nil
    ) {
        subscribe(
            Observer(
                next: next,
                error: error ?? { downstream.sendError($0) },
                completed: completed ?? { downstream.sendCompleted() }),
            site: site, owner: downstream.disposable, hold: { downstream.add($0) })
    }

    /// Forwards every event of this signal to `subscriber`, which holds the subscription
    /// from before this signal starts sending.
    func forwardAll(to subscriber: Subscriber<Value>, site: SourceLocation) {
        forward(to: subscriber, site: site, next: { subscriber.sendNext($0) })
    }
}
