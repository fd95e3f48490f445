import SignalScopeAnalysis
import SignalScope
import SignalScopeTracing

/// Turns a trace into graph nodes and edges, then merges look-alikes.
struct GraphBuilder {
    private let trace: Trace
    private var nodes: [String: SignalGraph.Node] = [:]
    private var order: [String] = []
    private var edges: [EdgeKey: SignalGraph.Edge] = [:]
    private var edgeOrder: [EdgeKey] = []
    /// What each graph node was made from, for highlighting and collapsing.
    private var parents: [String: [String]] = [:]

    private struct EdgeKey: Hashable {
        let from: String
        let to: String
        let style: SignalGraph.EdgeStyle
    }

    init(trace: Trace) {
        self.trace = trace
        var subscriptionStates: [NodeID: Set<SignalGraph.State>] = [:]
        for subscription in trace.subscriptions.values {
            subscriptionStates[subscription.node, default: []].insert(Self.state(of: subscription))
        }
        for node in trace.nodes.values.sorted(by: { $0.id < $1.id }) {
            add(SignalGraph.Node(
                id: Self.id(.node(node.id)), kind: Self.kind(node.kind), title: trace.title(of: node),
                site: node.site, state: Self.state(combining: subscriptionStates[node.id] ?? []), count: 1, rule: nil,
                entities: [.node(node.id)]))
            for edge in node.parents {
                connect(Self.id(.node(edge.parent)), Self.id(.node(node.id)), edge.kind == .data ? .data : .control)
            }
        }
        for subscription in trace.subscriptions.values.sorted(by: { $0.id < $1.id }) where subscription.parent == nil {
            let id = Self.id(.subscription(subscription.id))
            add(SignalGraph.Node(
                id: id, kind: .subscriber, title: "subscriber", site: subscription.site,
                state: Self.state(of: subscription), count: 1, rule: nil, entities: [.subscription(subscription.id)]))
            connect(Self.id(.node(subscription.node)), id, .data)
        }
        var capturedBy: [ObjectID: [SubscriptionID]] = [:]
        for subscription in trace.subscriptions.keys.sorted() {
            for case .object(let object) in trace.heap.observerCaptures(of: subscription).keys {
                capturedBy[object, default: []].append(subscription)
            }
        }
        for object in trace.objects.values.sorted(by: { $0.id < $1.id }) {
            let id = Self.id(.object(object.id))
            add(SignalGraph.Node(
                id: id, kind: .object, title: Trace.shortTypeName(object.typeName), site: nil,
                state: object.retainCountAtEnd == nil ? .disposed : .live, count: 1, rule: nil,
                entities: [.object(object.id)]))
            for subscription in capturedBy[object.id] ?? [] { connect(subscriberID(of: subscription), id, .retain) }
            for held in trace.heap.entitiesHeld(by: object.id) {
                switch held {
                case .node(let node): connect(id, Self.id(.node(node)), .retain)
                case .subscription(let subscription): connect(id, subscriberID(of: subscription), .retain)
                case .object: break
                }
            }
        }
    }

    /// Marks the nodes (and the edges between them) that findings are about, and the ends
    /// of each finding's suspect step (the reference to cut), with the edge between them.
    mutating func highlight(_ findings: [Finding]) {
        for finding in findings {
            let marks = FindingMarks(finding, graphID: { graphID(of: $0) })
            for id in marks.nodes where nodes[id] != nil && nodes[id]?.rule == nil { nodes[id]?.rule = finding.rule }
            for key in edgeOrder where marks.contains(edgeFrom: key.from, to: key.to) {
                edges[key]?.isHighlighted = true
            }
            for ends in marks.suspectEnds {
                for id in ends where nodes[id] != nil { nodes[id]?.isSuspect = true }
            }
            for key in edgeOrder where key.style == .retain && marks.isSuspect(retainingEdgeFrom: key.from, to: key.to) {
                edges[key]?.isSuspect = true
            }
        }
    }

    /// Merges nodes made at the same site with the same shape (same kind, title, state,
    /// highlight and merged parents) into the first of them, with a count.
    ///
    /// Parents are merged before their children (an inner signal is made after the
    /// `flattenMap` it feeds, so creation order would judge the `flattenMap` first, by parents
    /// not merged yet), so look-alike chains merge all the way down.
    mutating func collapse() {
        var representative: [String: String] = [:]
        var byShape: [String: String] = [:]
        for id in parentsFirst() {
            guard let node = nodes[id] else { continue }
            // Which groups feed it, not how many of each: a flattenMap that met nine inner
            // signals and one that met ten look alike.
            let parentShape = Set((parents[id] ?? []).map { representative[$0] ?? $0 }).sorted().joined(separator: ",")
            let shape = [node.kind.rawValue, node.title, node.site.map { "\($0.file):\($0.line)" } ?? "",
                         node.state.rawValue, node.rule?.rawValue ?? "", node.isSuspect ? "suspect" : "", parentShape].joined(separator: "|")
            if let first = byShape[shape] {
                representative[id] = first
                nodes[first]?.count += 1
                nodes[first]?.entities += node.entities
                nodes[id] = nil
            } else {
                byShape[shape] = id
                representative[id] = id
            }
        }
        var merged: [EdgeKey: SignalGraph.Edge] = [:]
        var mergedOrder: [EdgeKey] = []
        for key in edgeOrder {
            guard let edge = edges[key] else { continue }
            let from = representative[key.from] ?? key.from, to = representative[key.to] ?? key.to
            let newKey = EdgeKey(from: from, to: to, style: key.style)
            if merged[newKey] == nil {
                merged[newKey] = SignalGraph.Edge(from: from, to: to, style: key.style, count: 0, isHighlighted: false)
                mergedOrder.append(newKey)
            }
            merged[newKey]!.count += edge.count
            merged[newKey]!.isHighlighted = merged[newKey]!.isHighlighted || edge.isHighlighted
            merged[newKey]!.isSuspect = merged[newKey]!.isSuspect || edge.isSuspect
        }
        order = order.filter { nodes[$0] != nil }
        edges = merged
        edgeOrder = mergedOrder
    }

    /// The nodes in an order where each comes after its parents, creation order among
    /// equals; a node on a cycle (retain edges make them) comes where the walk meets it.
    private func parentsFirst() -> [String] {
        var result: [String] = []
        result.reserveCapacity(order.count)
        var visited: Set<String> = []
        for start in order where !visited.contains(start) {
            // Depth-first over parents, without recursion: a chain may be thousands deep.
            var stack: [(id: String, next: Int)] = [(start, 0)]
            visited.insert(start)
            while let top = stack.last {
                let list = parents[top.id] ?? []
                if top.next < list.count {
                    stack[stack.count - 1].next += 1
                    let parent = list[top.next]
                    if nodes[parent] != nil, visited.insert(parent).inserted { stack.append((parent, 0)) }
                } else {
                    result.append(top.id)
                    stack.removeLast()
                }
            }
        }
        return result
    }

    func result() -> ([SignalGraph.Node], [SignalGraph.Edge]) {
        let present = Set(order)
        return (order.compactMap { nodes[$0] },
                edgeOrder.compactMap { edges[$0] }.filter { present.contains($0.from) && present.contains($0.to) })
    }

    private mutating func add(_ node: SignalGraph.Node) {
        guard nodes[node.id] == nil else { return }
        nodes[node.id] = node
        order.append(node.id)
    }

    private mutating func connect(_ from: String, _ to: String, _ style: SignalGraph.EdgeStyle) {
        let key = EdgeKey(from: from, to: to, style: style)
        if edges[key] == nil {
            edges[key] = SignalGraph.Edge(from: from, to: to, style: style, count: 0, isHighlighted: false)
            edgeOrder.append(key)
            parents[to, default: []].append(from)
        }
        edges[key]!.count += 1
    }

    /// A subscription's node in the graph: its subscriber node if user code made it,
    /// otherwise the operator stage whose subscription made it (map's subscription to its
    /// source is map's), or, failing that, the node it subscribed to.
    private func subscriberID(of subscription: SubscriptionID) -> String {
        Self.graphID(of: subscription, in: trace)
    }

    /// ``subscriberID(of:)`` for any trace: where the report finds a subscription too.
    static func graphID(of subscription: SubscriptionID, in trace: Trace) -> String {
        guard let info = trace.subscriptions[subscription], let parent = info.parent else { return id(.subscription(subscription)) }
        return id(.node(trace.subscriptions[parent]?.node ?? info.node))
    }

    private func graphID(of entity: TraceEntity) -> String {
        if case .subscription(let id) = entity { return subscriberID(of: id) }
        return Self.id(entity)
    }

    static func id(_ entity: TraceEntity) -> String {
        switch entity {
        case .node(let id): "n\(id.rawValue)"
        case .subscription(let id): "s\(id.rawValue)"
        case .object(let id): "o\(id.rawValue)"
        }
    }

    private static func kind(_ kind: NodeKind) -> SignalGraph.Kind {
        switch kind {
        case .signal: .signal
        case .subject, .replaySubject, .behaviorSubject: .subject
        case .property: .property
        case .lifetime: .lifetime
        case .operator: .operatorStage
        case .command: .command
        }
    }

    private static func state(of subscription: Trace.Subscription) -> SignalGraph.State {
        switch subscription.ending {
        case nil: .live
        case .completed: .completed
        case .error: .errored
        case .disposed: .disposed
        }
    }

    /// A node's state, from its subscriptions': live if any is, else errored, completed,
    /// disposed; idle if it had none.
    private static func state(combining states: Set<SignalGraph.State>) -> SignalGraph.State {
        for state in [SignalGraph.State.live, .errored, .completed, .disposed] where states.contains(state) {
            return state
        }
        return .idle
    }
}
