import SignalScope
import SignalScopeTracing

/// Where each subscription a checkpoint names was made, and to which signal, as the trace
/// knew them when it read the checkpoint: `grows-per-repetition` counts a checkpoint's
/// subscriptions by site, also those that ended before the log did, which a trace keeping
/// only live entities has forgotten by then. Gathered while the log is read (``TraceFact``).
package struct CheckpointedSubscriptions: TraceFact {
    /// A subscription a checkpoint named.
    package struct Made: Sendable, Hashable {
        package let site: TraceSite
        package let node: NodeID
    }

    /// By subscription.
    package private(set) var made: [SubscriptionID: Made] = [:]

    package init() {}

    package static var follows: TraceEvent.Kinds { .extended }

    package mutating func observe(_ record: TraceRecord, in trace: Trace) {
        guard case .extended(let event) = record.event, let checkpoint = event.payload as? Checkpoint else { return }
        for id in checkpoint.subscriptions {
            if let subscription = trace.subscriptions[id] { made[id] = Made(site: subscription.site, node: subscription.node) }
        }
    }

    package mutating func finish(in trace: Trace) {}

    package func restricted(to trace: Trace) -> CheckpointedSubscriptions {
        var copy = self
        copy.made = made.filter { trace.nodes[$0.value.node] != nil }
        return copy
    }
}
