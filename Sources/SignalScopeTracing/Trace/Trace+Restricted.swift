import SignalScope

/// Views of a read trace: the part some code made.
extension Trace {
    /// The part of the trace made by some code only: the nodes created at sites that
    /// `isIncluded` accepts, the subscriptions to them and the objects those capture, with
    /// the records and facts about them. (Recordings see the whole process; this draws or
    /// analyses one module, one file.)
    public func restricted(to isIncluded: (TraceSite) -> Bool) -> Trace {
        let kept = Set(nodes.values.filter { isIncluded($0.site) }.map(\.id))
        var copy = self
        copy.nodes = nodes.filter { kept.contains($0.key) }
        copy.subscriptions = subscriptions.filter { copy.nodes[$0.value.node] != nil }
        let keptObjects = Set(copy.subscriptions.keys.flatMap { heap.observerCaptures(of: $0).keys }.compactMap { entity -> ObjectID? in
            if case .object(let id) = entity { id } else { nil }
        })
        copy.objects = objects.filter { keptObjects.contains($0.key) }
        copy.records = records.filter { record in
            switch record.event {
            case .node(let id, _, _, _, _, _), .nodeNamed(let id, _), .edge(_, let id), .violation(let id, _, _, _, _),
                .nodeAlive(let id, _, _):
                copy.nodes[id] != nil
            case .snapshot, .end, .virtualTime:
                true
            case .extended(let event):
                event.payload.subscription.map { copy.subscriptions[$0] != nil } ?? true
            default:
                record.event.subscription.map { copy.subscriptions[$0] != nil } ?? false
            }
        }
        copy.violations = violations.filter { copy.nodes[$0.node] != nil }
        copy.facts = facts.restricted(to: copy)
        copy.extendedEvents = extendedEvents.filter { record in record.event.subscription.map { copy.subscriptions[$0] != nil } ?? true }
        return copy
    }
}
