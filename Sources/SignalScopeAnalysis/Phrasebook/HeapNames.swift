import SignalScopeTracing

/// How every output names an object of a heap snapshot: a finding's path, the report's
/// details panel. Landmarks (the program's objects and the runtime's entities) by the trace's
/// names (``Trace/name(of:)``); what lies between them (a collection, a box, a closure's
/// context, the runtime's or the standard library's plumbing) as a noun.
public enum HeapNames {
    /// An object that is no landmark, as a noun: `an array`, `a box`, `a closure context`,
    /// `a MutableProperty`.
    public static func noun(of object: TraceHeap.Object) -> String {
        switch object.category {
        case .storage: TraceHeap.collectionNoun(ofStorage: object.typeName) ?? "a collection"
        case .box: "a box"
        case .closureContext: "a closure context"
        case .user, .library, .runtime: "a \(Trace.shortTypeName(object.typeName))"
        }
    }

    /// Any object of the snapshot by name: a node with the site that made it, a subscription
    /// or its disposable by number, a command, a scheduled action, a program's object by its
    /// type; anything else as a noun (``noun(of:)``).
    public static func name(of object: TraceHeap.Object, in trace: Trace) -> FindingStep {
        switch object.role {
        case .node(let id):
            guard let node = trace.nodes[id] else { return .name("a signal made before the trace started", of: .node(id)) }
            return "\(FindingStep.name(trace.name(of: node), of: .node(id))) (\(node.site))"
        case .subscription(let id): return .name(Trace.name(of: id), of: .subscription(id))
        case .disposable(let id): return .name(Trace.name(ofDisposableOf: id), of: .object(object.id))
        case .command: return "a command"
        case .scheduledAction(let subscription):
            return "a scheduled action\(subscription.map { " of \(FindingStep.name(Trace.name(of: $0), of: .subscription($0)))" } ?? "")"
        case nil where object.category == .user: return .name(Trace.shortTypeName(object.typeName), of: .object(object.id))
        case nil: return "\(noun(of: object))"
        }
    }
}
