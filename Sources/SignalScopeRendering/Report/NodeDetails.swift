import SignalScope
import SignalScopeAnalysis
import SignalScopeTracing

/// What the report's panel says about one graph node: its retain count, who holds it (each
/// strong reference to it in the closing snapshot, named), its subscriptions, how many events
/// they had and the first values.
struct NodeDetails {
    private(set) var retainCount: Int?
    private(set) var holders: [String] = []
    private(set) var subscriptions: [SubscriptionID] = []
    private(set) var eventCount = 0
    private(set) var values: [String] = []

    static let valueLimit = 20

    /// The details of `node`; `subscriptionsByNode` is the trace's subscriptions grouped by
    /// the node they are to (built once for all nodes).
    init(node: SignalGraph.Node, trace: Trace, subscriptionsByNode: [NodeID: [SubscriptionID]]) {
        var heapObjects: [ObjectID] = []
        for entity in node.entities {
            switch entity {
            case .node(let id):
                subscriptions += subscriptionsByNode[id] ?? []
                if let object = trace.heap.object(for: .node(id)) { heapObjects.append(object.id) }
            case .subscription(let id):
                subscriptions.append(id)
                if let object = trace.heap.object(for: .subscription(id)) { heapObjects.append(object.id) }
            case .object(let id):
                heapObjects.append(id)
            }
        }
        retainCount = heapObjects.first.flatMap { trace.heap.objects[$0]?.retainCount }
        for object in heapObjects.prefix(1) {
            for reference in trace.heap.references(to: object) where reference.isCounted {
                holders.append(Self.describe(reference, in: trace))
            }
        }
        // In words' order, subscription numbers aside: the walk's order follows addresses,
        // and numbers are the process's, both of which vary from run to run.
        holders.sort { ($0.replacing(/#\d+/, with: "#"), $0) < ($1.replacing(/#\d+/, with: "#"), $1) }
        for id in subscriptions {
            guard let subscription = trace.subscriptions[id] else { continue }
            eventCount += subscription.values.count
            for value in subscription.values.prefix(Self.valueLimit - values.count) { if let value { values.append(value) } }
        }
    }

    /// A strong reference in words, from the held object's side: what it is to its holder
    /// (``HeapRelation``), and the holder by name (``HeapNames``), as findings word them.
    private static func describe(_ reference: TraceHeap.Reference, in trace: Trace) -> String {
        let holder = trace.heap.objects[reference.from].map { HeapNames.name(of: $0, in: trace) } ?? "object \(reference.from)"
        return HeapRelation(reference, in: trace).phrase(holder: holder).description
    }
}
