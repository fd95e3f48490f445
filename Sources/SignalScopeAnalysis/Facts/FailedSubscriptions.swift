import SignalScopeTracing

/// The subscriptions user code made (not an operator's inner ones) that received an error, as
/// they were then, with their handlers: what `unhandled-error` judges. Gathered while the log
/// is read (``TraceFact``), so kept even when the trace keeps only live entities.
package struct FailedSubscriptions: TraceFact {
    /// In the order they failed.
    package private(set) var subscriptions: [Trace.Subscription] = []

    package init() {}

    package static var follows: TraceEvent.Kinds { .error }

    package mutating func observe(_ record: TraceRecord, in trace: Trace) {
        guard case .error(let id, _) = record.event, let subscription = trace.subscriptions[id], subscription.parent == nil else { return }
        subscriptions.append(subscription)
    }

    package mutating func finish(in trace: Trace) {}

    package func restricted(to trace: Trace) -> FailedSubscriptions {
        var copy = self
        copy.subscriptions = subscriptions.filter { trace.nodes[$0.node] != nil }
        return copy
    }
}
