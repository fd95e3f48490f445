import SignalScope
import SignalScopeTracing

/// How findings name what the leak model judges: nodes with their sites, subscriptions in
/// full, objects by type, and subjects for messages and fingerprints, from the trace's one
/// naming service (``Trace/name(of:)``).
extension LeakModel {
    func label(_ entity: TraceEntity) -> FindingStep {
        switch entity {
        case .node(let id): nodeLabel(id)
        case .subscription(let id): subscriptionLabel(id)
        case .object(let id): .name(objectLabel(id), of: entity)
        }
    }

    /// `subject "errors" (File.swift:40)`, `property (File.swift:9)`, `map (File.swift:12)`.
    /// A node with its creation site, line included, for a finding's path.
    func nodeLabel(_ id: NodeID) -> FindingStep {
        guard let node = trace.nodes[id] else { return .name(untracedNodeLabel(id), of: .node(id)) }
        return "\(FindingStep.name(trace.name(of: node), of: .node(id))) (\(node.site))"
    }

    /// A node for a finding's message and subject: its name and where it was made, with no
    /// line.
    func nodeSubject(_ id: NodeID) -> FindingSubject {
        guard let node = trace.nodes[id] else { return FindingSubject(kind: .node, name: untracedNodeLabel(id)) }
        return FindingSubject(kind: .node, name: trace.name(of: node), file: node.site.file, function: node.site.function)
    }

    /// User objects for a finding's message and subject: their type names, once each.
    func objectsSubject(_ ids: [ObjectID]) -> FindingSubject {
        FindingSubject(kind: .objects, name: Set(ids.map(objectLabel)).sorted().joined(separator: " and "))
    }

    /// A node made before the trace started (a global subject): the heap still knows its
    /// type, as the object its subscriptions hold as their source.
    private func untracedNodeLabel(_ id: NodeID) -> String {
        untracedLabels[id] ?? describeUntracedNode(id)
    }

    func describeUntracedNode(_ id: NodeID) -> String {
        guard let object = heap.object(for: .node(id))?.id ?? untracedSources[id], let type = heap.objects[object]?.typeName else {
            return "a signal made before the trace started"
        }
        return "\(shortTypeName(type)) (made before the trace started)"
    }

    func subscriptionLabel(_ id: SubscriptionID) -> FindingStep {
        let name = FindingStep.name(Trace.name(of: id), of: .subscription(id))
        guard let subscription = trace.subscriptions[id] else { return name }
        return "\(name) to \(nodeLabel(subscription.node)), made at \(subscription.site)"
    }

    func objectLabel(_ id: ObjectID) -> String {
        shortTypeName(heap.objects[id]?.typeName ?? trace.objects[id]?.typeName ?? "object \(id)")
    }

    /// The one short form of a type's name (``Trace/shortTypeName(_:)``).
    func shortTypeName(_ name: String) -> String { Trace.shortTypeName(name) }
}
