import SignalScopeCore
import SignalScopeTracing

/// What was alive when a trace stopped, and who held whom: the analyzers' common ground.
///
/// Edges are the strong references the runtime really makes, with their multiplicity, so
/// that a member's recorded retain count can be compared with the references the trace
/// accounts for (trial deletion):
/// - a subject keeps each live subscriber (1);
/// - a subscription keeps the subject it subscribed to (2: its source, and the removal
///   closure its disposable holds);
/// - a subscription keeps what its observer closures capture (their reference count),
///   including the subscription a forwarding observer feeds;
/// - a captured object keeps the nodes its stored properties hold (1).
/// An object that stores a subscription's disposable does not keep the subscription
/// alive, but it is the only handle that could end it: that is a logical edge, used to
/// recognise self-capture cycles, never counted.
struct LeakModel {
    let trace: Trace
    private(set) var alive: Set<TraceEntity> = []
    private(set) var retainCount: [TraceEntity: Int] = [:]
    private(set) var edges: [TraceEntity: [TraceEntity: Int]] = [:]
    private(set) var disposablesHeld: [ObjectID: Set<SubscriptionID>] = [:]
    /// What an earlier analyzer already explained; later ones leave it alone.
    var claimed: Set<TraceEntity> = []

    init(_ trace: Trace) {
        self.trace = trace
        for node in trace.nodes.values {
            guard let count = node.retainCountAtEnd else { continue }
            alive.insert(.node(node.id))
            retainCount[.node(node.id)] = count
        }
        for object in trace.objects.values {
            guard let count = object.retainCountAtEnd else { continue }
            alive.insert(.object(object.id))
            retainCount[.object(object.id)] = count
        }
        for subscription in trace.subscriptions.values {
            guard let count = subscription.retainCountAtEnd else { continue }
            alive.insert(.subscription(subscription.id))
            retainCount[.subscription(subscription.id)] = count
        }
        for subscription in trace.subscriptions.values where alive.contains(.subscription(subscription.id)) {
            let entity = TraceEntity.subscription(subscription.id)
            if alive.contains(.node(subscription.node)) {
                add(entity, .node(subscription.node), 2)
                add(.node(subscription.node), entity, 1)
            }
            if subscription.holdsObserver {
                for (target, references) in subscription.captures where alive.contains(target) {
                    add(entity, target, references)
                }
            }
        }
        for object in trace.objects.values where alive.contains(.object(object.id)) {
            for held in object.holds {
                switch held {
                case .node(let node) where alive.contains(.node(node)): add(.object(object.id), held, 1)
                case .subscription(let subscription): disposablesHeld[object.id, default: []].insert(subscription)
                default: break
                }
            }
        }
    }

    private mutating func add(_ from: TraceEntity, _ to: TraceEntity, _ count: Int) {
        edges[from, default: [:]][to, default: 0] += count
    }

    /// The references to `entity` from `holders` that the trace accounts for.
    func references(to entity: TraceEntity, from holders: some Sequence<TraceEntity>) -> Int {
        holders.reduce(0) { $0 + (edges[$1]?[entity] ?? 0) }
    }

    /// Whether nothing outside `set` holds any member: every member's retain count is made
    /// up of references from inside the set. Such a set is garbage Swift will never free.
    func isUnreachable(_ set: Set<TraceEntity>) -> Bool {
        set.allSatisfy { member in (retainCount[member] ?? 0) <= references(to: member, from: set) }
    }

    /// The live subscriptions whose observers hold `entity`.
    func capturers(of entity: TraceEntity) -> [SubscriptionID] {
        edges.compactMap { holder, targets in
            guard case .subscription(let id) = holder, targets[entity] != nil else { return nil }
            return id
        }.sorted()
    }

    /// The strongly connected sets of live entities (Tarjan), each in a stable order.
    func stronglyConnectedSets() -> [[TraceEntity]] {
        var index = 0
        var indices: [TraceEntity: Int] = [:]
        var lowLinks: [TraceEntity: Int] = [:]
        var stack: [TraceEntity] = []
        var onStack: Set<TraceEntity> = []
        var result: [[TraceEntity]] = []
        func connect(_ entity: TraceEntity) {
            indices[entity] = index
            lowLinks[entity] = index
            index += 1
            stack.append(entity)
            onStack.insert(entity)
            for next in (edges[entity] ?? [:]).keys.sorted(by: Self.order) {
                if indices[next] == nil {
                    connect(next)
                    lowLinks[entity] = min(lowLinks[entity]!, lowLinks[next]!)
                } else if onStack.contains(next) {
                    lowLinks[entity] = min(lowLinks[entity]!, indices[next]!)
                }
            }
            guard lowLinks[entity] == indices[entity] else { return }
            var members: [TraceEntity] = []
            while let member = stack.popLast() {
                onStack.remove(member)
                members.append(member)
                if member == entity { break }
            }
            result.append(members.sorted(by: Self.order))
        }
        for entity in alive.sorted(by: Self.order) where indices[entity] == nil { connect(entity) }
        return result
    }

    /// Nodes, then subscriptions, then objects, each by id.
    static func order(_ lhs: TraceEntity, _ rhs: TraceEntity) -> Bool {
        func key(_ entity: TraceEntity) -> (Int, UInt64) {
            switch entity {
            case .node(let id): (0, id.rawValue)
            case .subscription(let id): (1, id.rawValue)
            case .object(let id): (2, id.rawValue)
            }
        }
        return key(lhs) < key(rhs)
    }

    /// Whether `ancestor` is `node` or feeds it through the operator graph.
    func feeds(_ ancestor: NodeID, _ node: NodeID) -> Bool {
        var seen: Set<NodeID> = []
        var pending = [node]
        while let current = pending.popLast() {
            if current == ancestor { return true }
            guard seen.insert(current).inserted, let parents = trace.nodes[current]?.parents else { continue }
            pending += parents.map(\.parent)
        }
        return false
    }

    /// Whether a subscription to `node` can end by itself: an operator on its way bounds it
    /// (`takeUntil` a trigger, `take`, `takeWhile`, `timeout`).
    func isBounded(_ node: NodeID) -> Bool {
        var seen: Set<NodeID> = []
        var pending = [node]
        while let current = pending.popLast() {
            guard seen.insert(current).inserted, let info = trace.nodes[current] else { continue }
            if info.kind == .operator, Self.boundingOperators.contains(info.name) { return true }
            pending += info.parents.filter { $0.kind == .data }.map(\.parent)
        }
        return false
    }

    private static let boundingOperators: Set<String> = ["takeUntil", "take", "takeWhile", "timeout"]

    // MARK: Labels for paths and messages

    func label(_ entity: TraceEntity) -> String {
        switch entity {
        case .node(let id): nodeLabel(id)
        case .subscription(let id): subscriptionLabel(id)
        case .object(let id): objectLabel(id)
        }
    }

    /// `subject "errors" (File.swift:40)`, `property (File.swift:9)`, `map (File.swift:12)`.
    func nodeLabel(_ id: NodeID) -> String {
        guard let node = trace.nodes[id] else { return "node \(id)" }
        let what = [.operator, .signal].contains(node.kind) ? node.name : node.kind.rawValue
        return "\(what)\(node.userName.map { " \"\($0)\"" } ?? "") (\(node.site))"
    }

    func subscriptionLabel(_ id: SubscriptionID) -> String {
        guard let subscription = trace.subscriptions[id] else { return "subscription \(id)" }
        return "subscription #\(id.rawValue) to \(nodeLabel(subscription.node)), made at \(subscription.site)"
    }

    func objectLabel(_ id: ObjectID) -> String {
        guard let object = trace.objects[id] else { return "object \(id)" }
        return shortTypeName(object.typeName)
    }

    /// `Module.Outer.Type` as `Type`, generic arguments kept.
    func shortTypeName(_ name: String) -> String {
        let base = name.split(separator: "<", maxSplits: 1)
        let last = base[0].split(separator: ".").last.map(String.init) ?? name
        return base.count > 1 ? last + "<" + base[1] : last
    }

    func site(of entity: TraceEntity) -> TraceSite {
        switch entity {
        case .node(let id): trace.nodes[id]?.site ?? Self.unknownSite
        case .subscription(let id): trace.subscriptions[id]?.site ?? Self.unknownSite
        case .object(let id):
            capturers(of: .object(id)).first.flatMap { trace.subscriptions[$0]?.site } ?? Self.unknownSite
        }
    }

    static let unknownSite = TraceSite(file: "?", line: 0, function: "?")
}
