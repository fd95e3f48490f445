import SignalScope
import SignalScopeTracing

/// The heap at the end of a trace as the analyzers judge it: every object the closing walk
/// reached, the strong references between them, and trial deletion's verdict.
///
/// Trial deletion: an object whose strong retain count is larger than the references the
/// walk found to it is held by something the walk did not see (a global, a local still in
/// scope, a dispatch queue's pending block, an object beyond the walk's budget), so it is
/// live, and so is everything it reaches. What is left is held only by other leftovers:
/// garbage Swift will never free, whatever kinds of objects it runs through. References a
/// conservative scan found are not counted (they may be stale) and neither are weak ones,
/// so an uncertain reference can only make an object look held, never leaked.
struct LeakModel {
    let trace: Trace
    let heap: TraceHeap
    /// Objects nothing outside the garbage holds.
    private(set) var garbage: Set<ObjectID> = []
    /// The garbage's strongly connected sets that contain a cycle and that nothing outside
    /// them holds, each sorted by id. A cycle that other garbage holds (the subject a leaked
    /// router stores) is part of that garbage's leak, and is named among what it keeps
    /// alive: saying that nothing else holds it would be false.
    private(set) var cycles: [[ObjectID]] = []
    /// What an earlier analyzer already explained; later ones leave it alone.
    var claimed: Set<ObjectID> = []
    /// Objects whose fate depends on references the walk could not read exactly (found by a
    /// conservative scan of what it could not decode): garbage if those references are
    /// real, held if they are stale. No finding is made about them; the analysis says it
    /// could not prove them (``unproven``).
    private(set) var undecided: Set<ObjectID> = []

    private var counted: [ObjectID: [TraceHeap.Reference]] = [:]
    private var countedIn: [ObjectID: [TraceHeap.Reference]] = [:]
    /// Strong references a conservative scan found (they may be stale), by holder and target.
    private var uncertain: [ObjectID: [TraceHeap.Reference]] = [:]
    private var uncertainIn: [ObjectID: [TraceHeap.Reference]] = [:]
    /// For nodes made before the trace started (a global subject): the heap object their
    /// subscriptions hold as their source, found once rather than per label.
    private(set) var untracedSources: [NodeID: ObjectID] = [:]
    /// Those nodes' labels, made once: thousands of leaked subscriptions to one global
    /// subject each name it.
    private(set) var untracedLabels: [NodeID: String] = [:]
    private let boundedNodes: Set<NodeID>
    /// What the program still uses (``inUse(_:)``).
    private var used: Set<ObjectID> = []
    /// Each cycle's blame once a rule has asked for it (``blame(ofCycle:)``), by index.
    var blames: [Int: Blame?] = [:]

    init(_ trace: Trace) {
        self.trace = trace
        heap = trace.heap
        boundedNodes = Self.boundedNodes(of: trace)
        for reference in heap.references where !reference.isWeak {
            if reference.isExact {
                counted[reference.from, default: []].append(reference)
                countedIn[reference.to, default: []].append(reference)
            } else {
                uncertain[reference.from, default: []].append(reference)
                uncertainIn[reference.to, default: []].append(reference)
            }
        }
        for subscription in trace.subscriptions.values
        where trace.nodes[subscription.node] == nil && untracedSources[subscription.node] == nil {
            guard let holder = heap.object(for: .subscription(subscription.id))?.id,
                let source = counted[holder]?.first(where: {
                    $0.kind == .storedProperty && $0.path == Subscriber<Never>.sourcePropertyName
                })
            else { continue }
            untracedSources[subscription.node] = source.to
        }
        for subscription in trace.subscriptions.values
        where trace.nodes[subscription.node] == nil && untracedLabels[subscription.node] == nil {
            untracedLabels[subscription.node] = describeUntracedNode(subscription.node)
        }
        judge()
        used = findInUse()
    }

    /// Trial deletion, then the cycles among what it leaves; then trial deletion again with
    /// the uncertain references taken as real, to know what depends on them.
    private mutating func judge() {
        garbage = trialDeletion(countingUncertain: false)
        if !uncertain.isEmpty { undecided = trialDeletion(countingUncertain: true).subtracting(garbage) }
        cycles = StronglyConnected.sets(of: garbage.sorted(), edges: { self.references(from: $0).map(\.to).filter(self.garbage.contains) })
            .filter { set in set.count > 1 || references(from: set[0]).contains { $0.to == set[0] } }
            .filter { set in
                let members = Set(set)
                return set.allSatisfy { member in references(to: member).allSatisfy { members.contains($0.from) } }
            }
            .map { $0.sorted() }
            .sorted { $0[0] < $1[0] }
    }

    /// What nothing outside holds: objects whose retain count is not made up of the references
    /// counted are live, and so is everything they reach.
    private func trialDeletion(countingUncertain: Bool) -> Set<ObjectID> {
        func isHeld(_ object: ObjectID) -> Bool {
            guard countingUncertain else { return isHeldFromOutside(object) }
            guard let retainCount = heap.objects[object]?.retainCount else { return true }
            return TraceHeap.isHeldFromOutside(
                retainCount: retainCount, exactReferences: (countedIn[object]?.count ?? 0) + (uncertainIn[object]?.count ?? 0))
        }
        var live: Set<ObjectID> = []
        var pending = heap.objects.keys.filter(isHeld)
        while let next = pending.popLast() {
            guard live.insert(next).inserted else { continue }
            pending += (counted[next] ?? []).map(\.to)
            if countingUncertain { pending += (uncertain[next] ?? []).map(\.to) }
        }
        return Set(heap.objects.keys).subtracting(live)
    }

    /// Whether something the walk did not see holds `object` (``TraceHeap/isHeldFromOutside(retainCount:exactReferences:)``
    /// over the references counted).
    func isHeldFromOutside(_ object: ObjectID) -> Bool {
        guard let retainCount = heap.objects[object]?.retainCount else { return true }
        return TraceHeap.isHeldFromOutside(retainCount: retainCount, exactReferences: countedIn[object]?.count ?? 0)
    }

    /// The counted references `object` holds.
    func references(from object: ObjectID) -> [TraceHeap.Reference] { counted[object] ?? [] }

    /// Whether a reference a conservative scan found (which may be stale) points to `object`.
    func hasInexactHolders(_ object: ObjectID) -> Bool { uncertainIn[object] != nil }

    /// The counted references to `object`.
    func references(to object: ObjectID) -> [TraceHeap.Reference] { countedIn[object] ?? [] }

    // MARK: What the program still uses

    /// Whether the program still uses `object`: something it holds from outside what the walk
    /// saw (a global, a static, a local, an object made before recording started), or a
    /// handle it keeps, reaches it without passing through a signal's subscriber list, and
    /// through a subscription only by way of that subscription's disposable (the handle
    /// that can end it). An object alive at the end that the program still uses is held by
    /// the program, signals or not, and no rule about objects alive at the end speaks of it.
    func inUse(_ object: ObjectID) -> Bool { used.contains(object) }

    private func findInUse() -> Set<ObjectID> {
        var subscriptionObjects: [SubscriptionID: ObjectID] = [:]
        for object in heap.objects.values {
            if case .subscription(let id)? = object.role { subscriptionObjects[id] = object.id }
        }
        var reached: Set<ObjectID> = []
        var pending = heap.objects.keys.filter { id in
            guard !garbage.contains(id), isHeldFromOutside(id) else { return false }
            if case .subscription? = heap.objects[id]?.role { return false }
            return true
        }
        while let next = pending.popLast() {
            guard reached.insert(next).inserted else { continue }
            if case .disposable(let subscription)? = heap.objects[next]?.role, let object = subscriptionObjects[subscription] {
                pending.append(object)
            }
            for reference in references(from: next) {
                if case .subscription? = heap.objects[reference.to]?.role { continue }
                pending.append(reference.to)
            }
        }
        return reached
    }

    // MARK: Owners

    /// Whether `object` was allocated before `other`, as far as the trace says: an object with
    /// no rank was made before recording started (or the trace does not say), which makes it
    /// older than every ranked one; two unranked objects are of no known order.
    func isOlder(_ object: ObjectID, than other: ObjectID) -> Bool {
        let mine = heap.objects[object]?.allocationOrder, theirs = heap.objects[other]?.allocationOrder
        switch (mine, theirs) {
        case (let mine?, let theirs?): return mine < theirs
        case (nil, _?): return true
        case (_, nil): return false
        }
    }

    /// A user object that exists for a subscription's sake (an observation token a signal's
    /// creation block made, a library's state object a disposable captures): nothing but the
    /// runtime's objects, closures, boxes and collections hold it, and they are held by a
    /// subscription of `members` made before it (so it was made while that subscription
    /// started, for it). A person fixes the code that made the subscription, never such an
    /// object's references.
    func isInternal(_ object: ObjectID, in members: Set<ObjectID>) -> Bool {
        guard isUser(object), let made = heap.objects[object]?.allocationOrder else { return false }
        var seen: Set<ObjectID> = [object]
        var pending = [object]
        while let next = pending.popLast() {
            for reference in references(to: next) where members.contains(reference.from) {
                let holder = reference.from
                if isUser(holder) { return false }
                if case .subscription? = heap.objects[holder]?.role {
                    if let order = heap.objects[holder]?.allocationOrder, order < made { return true }
                    continue
                }
                if seen.insert(holder).inserted { pending.append(holder) }
            }
        }
        return false
    }

    /// The objects of a leaked set that a person would recognise as its owners, the oldest
    /// first: its user objects that are not a subscription's internals. The oldest is the one
    /// the others were made for, so the reference back to it is the one to cut.
    func owners(of set: [ObjectID]) -> [ObjectID] {
        let members = Set(set)
        return oldestFirst(set.filter { isUser($0) && !isInternal($0, in: members) })
    }

    /// The objects a live leak is made of, in the order their findings are made, so that
    /// each finding's object claims what it keeps: first those that only subscriptions
    /// capture (through their observers' closures: the object the user's own observer
    /// captured), then those a signal's own closures or another object hold (a sharing
    /// operator's state, which a signal's creation block captures); each part oldest first.
    func leakOrder(_ objects: [ObjectID]) -> [ObjectID] {
        let (captured, held) = oldestFirst(objects).reduce(into: ([ObjectID](), [ObjectID]())) { parts, object in
            if isCapturedOnlyBySubscriptions(object) { parts.0.append(object) } else { parts.1.append(object) }
        }
        return captured + held
    }

    /// Whether every strong reference to `object` comes, through closures, boxes and
    /// collections, from subscriptions (their observers' or operators' closures), never from
    /// a signal, a disposable, a command or one of the program's objects.
    private func isCapturedOnlyBySubscriptions(_ object: ObjectID) -> Bool {
        var seen: Set<ObjectID> = [object]
        var pending = [object]
        var holders = 0
        while let next = pending.popLast() {
            for reference in references(to: next) {
                let holder = reference.from
                holders += 1
                switch heap.objects[holder]?.role {
                case .subscription?: continue
                case .some: return false
                case nil:
                    if isUser(holder) { return false }
                    if seen.insert(holder).inserted { pending.append(holder) }
                }
            }
        }
        return holders > 0
    }

    /// `objects` by age, the oldest first (``isOlder(_:than:)``; of no known order, by id).
    func oldestFirst(_ objects: [ObjectID]) -> [ObjectID] {
        objects.sorted { lhs, rhs in isOlder(lhs, than: rhs) || (!isOlder(rhs, than: lhs) && lhs < rhs) }
    }

    // MARK: What objects are

    func object(_ id: ObjectID) -> TraceHeap.Object? { heap.objects[id] }

    /// A user object: an instance of the program's own classes.
    func isUser(_ id: ObjectID) -> Bool { heap.objects[id]?.category == .user }

    /// An object a path names as such: a user object or a runtime entity (a signal, a
    /// subscription, a disposable, a command, a scheduled action).
    func isLandmark(_ id: ObjectID) -> Bool { isUser(id) || heap.objects[id]?.role != nil }

    /// The heap object that is `entity`.
    func object(for entity: TraceHeap.Role) -> ObjectID? { heap.object(for: entity)?.id }

    /// A heap object as the trace entity findings list.
    func traceEntity(_ id: ObjectID) -> TraceEntity? {
        switch heap.objects[id]?.role {
        case .node(let node): .node(node)
        case .subscription(let subscription): .subscription(subscription)
        case .disposable, .command, .scheduledAction: nil
        case nil: isUser(id) ? .object(id) : nil
        }
    }

    /// Whether a finding about these objects belongs to this trace: a trace restricted to
    /// some code keeps the whole heap (its references are real whoever made them), but
    /// reports only what involves its own nodes, subscriptions and objects.
    func concernsThisTrace(_ objects: some Sequence<ObjectID>) -> Bool {
        objects.contains { id in
            switch heap.objects[id]?.role {
            case .node(let node): trace.nodes[node] != nil
            case .subscription(let subscription), .disposable(let subscription): trace.subscriptions[subscription] != nil
            case .scheduledAction(let subscription?): trace.subscriptions[subscription] != nil
            case .command, .scheduledAction(nil): false
            case nil: isUser(id) && trace.objects[id] != nil
            }
        }
    }

    // MARK: Paths

    /// The shortest chain of counted references from `start` to an object `isTarget`
    /// accepts, stepping only through objects `canPass` accepts; empty if there is none.
    func path(
        from start: ObjectID, to isTarget: (ObjectID) -> Bool, through canPass: (ObjectID) -> Bool
    ) -> [TraceHeap.Reference] {
        var previous: [ObjectID: TraceHeap.Reference] = [:]
        var frontier = [start]
        var seen: Set<ObjectID> = [start]
        while !frontier.isEmpty {
            var next: [ObjectID] = []
            for holder in frontier {
                for reference in references(from: holder) {
                    if isTarget(reference.to) {
                        var chain = [reference]
                        var at = holder
                        while at != start, let step = previous[at] {
                            chain.append(step)
                            at = step.from
                        }
                        return chain.reversed()
                    }
                    guard canPass(reference.to), seen.insert(reference.to).inserted else { continue }
                    previous[reference.to] = reference
                    next.append(reference.to)
                }
            }
            frontier = next
        }
        return []
    }

    /// The shortest chain of counted references that holds `object`: from something held
    /// from outside what the walk reached (a global, a static, a stack) down to it; empty when
    /// the object itself is held from outside. For garbage, which nothing outside holds, the
    /// chain from the farthest of its holders.
    func retainingChain(to object: ObjectID) -> [TraceHeap.Reference] {
        guard !isHeldFromOutside(object) else { return [] }
        var towards: [ObjectID: TraceHeap.Reference] = [:]
        var seen: Set<ObjectID> = [object]
        var frontier = [object]
        var farthest = object
        func chain(from start: ObjectID) -> [TraceHeap.Reference] {
            var chain: [TraceHeap.Reference] = []
            var at = start
            while at != object, let step = towards[at] {
                chain.append(step)
                at = step.to
            }
            return chain
        }
        while !frontier.isEmpty {
            var holders: [ObjectID] = []
            for held in frontier {
                for reference in references(to: held) where seen.insert(reference.from).inserted {
                    towards[reference.from] = reference
                    if isHeldFromOutside(reference.from) { return chain(from: reference.from) }
                    holders.append(reference.from)
                    farthest = reference.from
                }
            }
            frontier = holders
        }
        return chain(from: farthest)
    }

    /// Where a fix goes for a chain that ends in a capture: the site of the last closure on
    /// it that the runtime keeps (an observer, an operator's closure, a creation block, a
    /// command's block), and that closure; when it keeps none, the last closure whose site
    /// debug information gave (a callback stored on an object).
    func fixSite(of chain: [TraceHeap.Reference]) -> (site: TraceSite, closure: TraceHeap.Closure)? {
        let closures = chain.reversed().compactMap(\.closure)
        let kept = closures.first { $0.role != nil && $0.site != nil } ?? closures.first { $0.site != nil }
        return kept.map { ($0.site!, $0) }
    }

    /// The stored property a person would make weak to break a cycle of the app's objects
    /// when no closure on it captures one (a closure's capture is fixed at the closure): a
    /// reference whose name says it points back (a delegate, a parent, an owner), else the
    /// one to the cycle's oldest object from a younger one (an owner is made before what it
    /// makes, so a reference to an older object points back up), else the first property of
    /// one of the app's objects on the way round. A property holding a closure is no
    /// candidate: the fix is in the closure.
    func cut(of around: [TraceHeap.Reference]) -> Cut? {
        var candidates: [Cut] = []
        for (index, reference) in around.enumerated() where isUser(reference.from) && reference.kind == .storedProperty {
            // The landmark the property leads to, past collections and boxes.
            guard let end = around[index...].firstIndex(where: { isLandmark($0.to) }),
                !around[index...end].contains(where: { $0.closure != nil })
            else { continue }
            candidates.append(Cut(reference: reference, holder: reference.from, target: around[end].to))
        }
        if let named = candidates.first(where: { Self.pointsBack($0.reference.path) }) { return named }
        let byAge = candidates.filter { cut in
            guard let target = object(cut.target)?.allocationOrder, let holder = object(cut.holder)?.allocationOrder else { return false }
            return target < holder
        }
        return byAge.min { object($0.target)!.allocationOrder! < object($1.target)!.allocationOrder! } ?? candidates.first
    }

    /// A property of one of the app's objects that a cycle runs through.
    struct Cut {
        let reference: TraceHeap.Reference
        /// The object whose property it is, and the object it leads to.
        let holder: ObjectID
        let target: ObjectID
    }

    /// Words that name a reference back to an owner, in the property's last component
    /// (words as often used for what an object owns, `router`, `coordinator`, are left to the
    /// allocation order).
    private static let backReferenceWords = ["delegate", "datasource", "parent", "owner", "presenting", "host", "back"]

    private static func pointsBack(_ path: String) -> Bool {
        let name = (path.split(separator: ".").last.map(String.init) ?? path).lowercased()
        return backReferenceWords.contains { name.contains($0) }
    }

    /// Where a class of the app's is declared, when the trace says.
    func declarationSite(of object: ObjectID) -> TraceSite? {
        heap.objects[object].flatMap { heap.typeSites[$0.typeName] }
    }

    /// A site for a finding about `objects` when no closure on its path has one: where one
    /// of its signals or subscriptions was made, or where a closure refers to one of its
    /// objects weakly.
    func site(near objects: [ObjectID]) -> TraceSite {
        for id in objects {
            switch heap.objects[id]?.role {
            case .node(let node): if let site = trace.nodes[node]?.site { return site }
            case .subscription(let subscription): if let site = trace.subscriptions[subscription]?.site { return site }
            default: continue
            }
        }
        for id in objects {
            for reference in heap.references(to: id) where reference.isWeak {
                for holder in heap.references(to: reference.from) {
                    if let site = holder.closure?.site { return site }
                }
            }
        }
        return Self.unknownSite
    }

    static let unknownSite = TraceSite(file: "?", line: 0, function: "?")

    // MARK: Signal semantics

    /// Whether a subscription to `node` can end by itself: a node on its way bounds it
    /// (its traits say so: `takeUntil` a trigger, `take`, `takeWhile`, `timeout`).
    func isBounded(_ node: NodeID) -> Bool { boundedNodes.contains(node) }

    /// The nodes a bounding node feeds through data edges, itself included: found once,
    /// downwards from every bounding node, so that asking costs nothing per subscription.
    private static func boundedNodes(of trace: Trace) -> Set<NodeID> {
        var pending = trace.nodes.values.filter { $0.traits.contains(.bounding) }.map(\.id)
        // Most programs bound nothing; the table of children costs a lookup per edge.
        guard !pending.isEmpty else { return [] }
        var children: [NodeID: [NodeID]] = [:]
        for node in trace.nodes.values {
            for edge in node.parents where edge.kind == .data { children[edge.parent, default: []].append(node.id) }
        }
        var bounded: Set<NodeID> = []
        while let next = pending.popLast() {
            guard bounded.insert(next).inserted else { continue }
            pending += children[next] ?? []
        }
        return bounded
    }
}

extension LeakModel {
    /// The runtime entities (subscriptions, signals, commands, scheduled actions) that keep
    /// `object` alive, when only they do: every strong reference to it comes from their
    /// closures, collections and boxes. `nil` when anything else holds it (a user object, or
    /// something the walk did not see), or when it is garbage.
    func runtimeKeepers(of object: ObjectID) -> Set<ObjectID>? {
        guard !garbage.contains(object), !isHeldFromOutside(object) else { return nil }
        var keepers: Set<ObjectID> = []
        var seen: Set<ObjectID> = [object]
        var pending = [object]
        while let next = pending.popLast() {
            for reference in references(to: next) {
                let holder = reference.from
                if heap.objects[holder]?.role != nil {
                    keepers.insert(holder)
                } else if isUser(holder) || isHeldFromOutside(holder) {
                    return nil
                } else if seen.insert(holder).inserted {
                    pending.append(holder)
                }
            }
        }
        return keepers.isEmpty ? nil : keepers
    }

    /// The chain from a keeper to the object it keeps, through what is neither a user
    /// object nor another entity.
    func chain(from keeper: ObjectID, to object: ObjectID) -> [TraceHeap.Reference] {
        path(from: keeper, to: { $0 == object }, through: { !self.isLandmark($0) })
    }

    /// The user objects the garbage in `set` keeps alive: what leaks along with it (other
    /// cycles among them included, which nothing but this garbage holds).
    func dependents(of set: [ObjectID]) -> [ObjectID] {
        var found: [ObjectID] = []
        var seen = Set(set)
        var pending = set
        while let next = pending.popLast() {
            for reference in references(from: next) where garbage.contains(reference.to) && seen.insert(reference.to).inserted {
                pending.append(reference.to)
                if isUser(reference.to) { found.append(reference.to) }
            }
        }
        return found.sorted()
    }

    /// What `roots` keep alive that the program no longer uses and that is not garbage (a
    /// leak through live signals): the roots, and everything they reach through counted
    /// references that is not in use.
    /// Objects of `known` are included but not walked past (what they keep was named already).
    func keptAlive(by roots: [ObjectID], stoppingAt known: Set<ObjectID> = []) -> Set<ObjectID> {
        var seen = Set(roots)
        var pending = roots
        while let next = pending.popLast() {
            if known.contains(next) && !roots.contains(next) { continue }
            for reference in references(from: next)
            where !inUse(reference.to) && !garbage.contains(reference.to) && seen.insert(reference.to).inserted {
                pending.append(reference.to)
            }
        }
        return seen
    }

    /// How many instances of one thing a path spells out before it counts the rest (the
    /// finding's data keeps them all).
    static let instancesShown = 3

    /// The trace entities (nodes, subscriptions, user objects) among heap objects.
    func traceEntities(_ objects: some Sequence<ObjectID>) -> [TraceEntity] {
        var seen: Set<TraceEntity> = []
        return objects.compactMap(traceEntity).filter { seen.insert($0).inserted }
    }
}

extension LeakModel {
    /// What the analysis could not prove, one sentence each: for every value the walk could
    /// not read exactly (a generic capture it could not place, a field it cannot decode, a
    /// key path's computed arguments) that holds something whose leak depends on it, what
    /// that is and why. `signalscope check` fails on them as on any incomplete analysis.
    var unproven: [String] {
        var sentences: [String] = []
        var said: Set<String> = []
        let holders = Set(undecided.flatMap { uncertainIn[$0] ?? [] }.map(\.from))
        for holder in holders.sorted() {
            let references = (uncertain[holder] ?? []).filter { undecided.contains($0.to) }
            let affected = reachable(from: references.map(\.to), within: undecided)
            guard !references.isEmpty, concernsThisTrace(affected + [holder]) else { continue }
            let users = Set(affected.filter(isUser).map(objectLabel)).sorted()
            let what = users.isEmpty ? "the signals and subscriptions it holds" : users.joined(separator: " and ")
            let sentence = "could not prove whether \(what) \(users.count == 1 ? "leaks" : "leak"): \(unreadable(holder, references[0]))"
            if said.insert(sentence).inserted { sentences.append(sentence) }
        }
        return sentences
    }

    /// Everything reachable from `starts` through references of any certainty, staying in `set`.
    private func reachable(from starts: [ObjectID], within set: Set<ObjectID>) -> [ObjectID] {
        var seen = Set(starts)
        var pending = starts
        while let next = pending.popLast() {
            for reference in (counted[next] ?? []) + (uncertain[next] ?? []) where set.contains(reference.to) {
                if seen.insert(reference.to).inserted { pending.append(reference.to) }
            }
        }
        return seen.sorted()
    }

    /// What the walk could not read in `holder`, where `reference` (one it found by a
    /// conservative scan) came from.
    private func unreadable(_ holder: ObjectID, _ reference: TraceHeap.Reference) -> String {
        guard let object = heap.objects[holder] else { return "an object holds a reference the walk could not read exactly" }
        switch object.category {
        case .closureContext:
            let closure = heap.references(to: holder).lazy.compactMap(\.closure).first
            let name = closure.map { HeapRelation.closureWords($0, isFirst: false).description } ?? "a closure"
            return "\(name) captures a value the walk could not read exactly (its type depends on a generic parameter it could not recover)"
        case .storage:
            return "a \(shortTypeName(object.typeName)) holds arguments of a computed component the walk could not read exactly"
        case .user, .runtime, .library, .box:
            let field = reference.path.isEmpty ? objectLabel(holder) : "\(objectLabel(holder)).\(reference.path)"
            return "\(field) holds a value the walk cannot decode (a noncopyable type, or one without reflection metadata)"
        }
    }
}
