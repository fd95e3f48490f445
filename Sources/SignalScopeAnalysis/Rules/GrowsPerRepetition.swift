import SignalScope
import SignalScopeTracing

/// Something grows with every repetition of a scenario: across a series of checkpoints the
/// program marked (`Tracer.checkpoint` with one label at one line, or the repetitions of
/// `expectNoSignalGrowth`), a class of entity (the program's objects of one type, the
/// subscriptions made at one line, the signals made at one line) has more alive at every
/// checkpoint than at the one before, from the first on, and some of it is still alive at
/// the end. The first repetition is a warm-up: what it fills once (a cache, a pool) is
/// never growth, and neither is a pool that stops growing at its bound. A leak that neither
/// a cycle nor a declaration shows (a registry, a static cache, a long-lived subject that
/// gains one more each time a screen opens) is found this way.
///
/// Classes that grow through one holder (the collection that gains an element each time)
/// are one leak: one finding, whose path is the chain of strong references that holds the
/// newest instance at the end. When an earlier rule explains those instances (a dropped
/// subscription, a capture of self), its finding is the one kept, at the line where the fix
/// goes, with the growth as its first steps.
struct GrowsPerRepetition: Analyzer {
    static let rule = RuleID.growsPerRepetition
    static let severity = Severity.error
    static let summary = "Objects, subscriptions or signals made at one place are more at every checkpoint of a repeated scenario, and still alive at the end."
    static let facts: [any TraceFact.Type] = [CheckpointedSubscriptions.self]

    /// What is counted: the program's objects by type; subscriptions and signals by where
    /// they were made.
    enum Class: Hashable, Comparable {
        case objects(String)
        case subscriptions(TraceSite)
        case nodes(TraceSite)

        private var key: (Int, String) {
            switch self {
            case .objects(let type): (0, type)
            case .subscriptions(let site): (1, "\(site)")
            case .nodes(let site): (2, "\(site)")
            }
        }

        static func < (lhs: Self, rhs: Self) -> Bool { lhs.key < rhs.key }
    }

    /// One class that grew, and what of it is alive at the end, oldest first.
    struct Growth {
        let kind: Class
        let counts: [Int]
        let instances: [ObjectID]
        var newest: ObjectID { instances[instances.count - 1] }
    }

    func analyze(_ model: inout LeakModel) -> [Finding] {
        let checkpoints = model.trace.extendedEvents.compactMap { record -> Checkpoint? in
            if case .extended(let event) = record.event { event.payload as? Checkpoint } else { nil }
        }
        var series: [[Checkpoint]] = []
        var seriesIndex: [String: Int] = [:]
        for checkpoint in checkpoints {
            let key = "\(checkpoint.label)\u{0}\(checkpoint.site)"
            if let index = seriesIndex[key] {
                series[index].append(checkpoint)
            } else {
                seriesIndex[key] = series.count
                series.append([checkpoint])
            }
        }
        var findings: [Finding] = []
        for marks in series where marks.count >= Checkpoint.seriesForGrowth {
            let growths = counts(of: marks, in: model.trace).compactMap { kind, counts in
                growth(of: kind, counts: counts, in: model)
            }
            for group in groups(of: growths, in: model) {
                findings.append(finding(for: group, at: marks[0], in: model))
            }
        }
        return findings
    }

    /// Each class's count at each checkpoint of a series.
    private func counts(of marks: [Checkpoint], in trace: Trace) -> [(Class, [Int])] {
        var counts: [Class: [Int]] = [:]
        let checkpointed = trace.fact(CheckpointedSubscriptions.self)?.made ?? [:]
        for (index, mark) in marks.enumerated() {
            func add(_ kind: Class, _ count: Int = 1) {
                counts[kind, default: Array(repeating: 0, count: marks.count)][index] += count
            }
            for (type, count) in mark.objectsByType { add(.objects(type), count) }
            for id in mark.subscriptions { if let site = checkpointed[id]?.site { add(.subscriptions(site)) } }
            for id in mark.nodes { if let site = trace.nodes[id]?.site { add(.nodes(site)) } }
        }
        return counts.sorted { $0.key < $1.key }
    }

    /// `kind` grew when it has more at every checkpoint than at the one before and some of
    /// it is alive at the end.
    private func growth(of kind: Class, counts: [Int], in model: LeakModel) -> Growth? {
        guard zip(counts, counts.dropFirst()).allSatisfy({ $0 < $1 }) else { return nil }
        let instances: [ObjectID]
        switch kind {
        case .objects(let type):
            instances = model.heap.objects.values.filter { $0.typeName == type && $0.category == .user }
                .sorted { ($0.allocationOrder ?? 0, $0.id) < ($1.allocationOrder ?? 0, $1.id) }.map(\.id)
        case .subscriptions(let site):
            instances = model.trace.subscriptions.values.filter { $0.site == site && $0.retainCountAtEnd != nil }
                .sorted { $0.id < $1.id }.compactMap { model.object(for: .subscription($0.id)) }
        case .nodes(let site):
            instances = model.trace.nodes.values.filter { $0.site == site && $0.retainCountAtEnd != nil }
                .sorted { $0.id < $1.id }.compactMap { model.object(for: .node($0.id)) }
        }
        return instances.isEmpty ? nil : Growth(kind: kind, counts: counts, instances: instances)
    }

    /// The growths that gain their instances through one holder (the last object the chains
    /// to the two newest instances share: the collection each repetition adds to), together;
    /// a growth whose instances share no holder stands alone.
    private func groups(of growths: [Growth], in model: LeakModel) -> [[Growth]] {
        var groups: [[Growth]] = []
        var byHolder: [ObjectID: Int] = [:]
        for growth in growths {
            guard growth.instances.count > 1,
                let holder = Self.sharedHolder(model.retainingChain(to: growth.newest), model.retainingChain(to: growth.instances[growth.instances.count - 2]))
            else {
                groups.append([growth])
                continue
            }
            if let index = byHolder[holder] {
                groups[index].append(growth)
            } else {
                byHolder[holder] = groups.count
                groups.append([growth])
            }
        }
        return groups
    }

    private static func sharedHolder(_ chain: [TraceHeap.Reference], _ other: [TraceHeap.Reference]) -> ObjectID? {
        func objects(_ chain: [TraceHeap.Reference]) -> [ObjectID] { chain.first.map { [$0.from] + chain.map(\.to) } ?? [] }
        return zip(objects(chain), objects(other)).prefix { $0 == $1 }.last?.0
    }

    private func finding(for group: [Growth], at mark: Checkpoint, in model: LeakModel) -> Finding {
        // The instance a person recognises first: one of the program's objects, else a
        // subscription the program made itself, else a signal.
        let primary =
            group.first { if case .objects = $0.kind { true } else { false } }
            ?? group.first { growth in
                if case .subscriptions = growth.kind, case .subscription(let id)? = model.object(growth.newest)?.role {
                    model.trace.subscriptions[id]?.parent == nil
                } else { false }
            } ?? group[0]
        let chain = model.retainingChain(to: primary.newest)
        var description = PathDescription(model, blamed: chain.suffix(1))
        let growthSteps = group.map { step(for: $0, at: mark, in: model) }
        var steps = growthSteps
        let newest = model.label(model.traceEntity(primary.newest) ?? .object(primary.newest))
        if chain.isEmpty {
            steps.append("the newest, \(newest), is held from outside what the heap walk reached: by a global, a static or a thread's stack")
        } else if model.garbage.contains(primary.newest) {
            steps.append("the newest, \(newest), is held at the end by:")
            steps += description.lines(chain)
            steps.append("nothing outside holds them: they, and everything that holds them, are held only by one another")
        } else {
            // What holds the chain's first object: a reference the walk could not read
            // exactly, or something outside what it reached.
            let first = model.label(model.traceEntity(chain[0].from) ?? .object(chain[0].from))
            steps.append("the newest, \(newest), is held at the end by:")
            steps.append(
                model.hasInexactHolders(chain[0].from)
                    ? "\(first), which something the heap walk could not read exactly holds"
                    : "\(first), which is held from outside what the heap walk reached: by a global, a static, a thread's stack or an object made before recording started")
            steps += description.lines(chain)
        }
        let subscription = group.lazy.compactMap { growth -> TraceSite? in
            if case .subscriptions(let site) = growth.kind { site } else { nil }
        }.first
        // The last of the program's objects that holds the newest instance on the way: the
        // cache or registry whose collection gains one each time.
        let owner = chain.reversed().lazy.map(\.from).first { model.isUser($0) && $0 != primary.newest }
        let location =
            model.fixSite(of: chain)?.site ?? subscription ?? owner.flatMap(model.declarationSite(of:))
            ?? model.declarationSite(of: primary.newest) ?? mark.site
        var finding = Finding(
            rule: Self.rule, severity: Self.severity,
            message: "more \(noun(primary.kind, primary.newest, in: model)) are alive at every \"\(mark.label)\"",
            subject: subject(primary, in: model), location: location, steps: steps,
            hint: "undo what each repetition adds when it ends: end the subscription (takeUntil(lifetime.ended)), unregister the observer or evict the cache entry; or bound what holds them",
            entities: model.traceEntities(chain.map(\.from) + [primary.newest]), evidence: chain)
        finding.explained = Set(group.flatMap(\.instances))
        finding.corroboration = growthSteps
        finding.showsGrowth = true
        return finding
    }

    /// `ProfileScreen objects alive at each "screen closed" (Screens.swift:40): 1, 2, 3, 4, 5, 1 more at every one after the first`.
    private func step(for growth: Growth, at mark: Checkpoint, in model: LeakModel) -> FindingStep {
        let added = zip(growth.counts, growth.counts.dropFirst()).map { $1 - $0 }
        let increase = Set(added).count == 1 ? "\(added[0]) more at every one after the first" : "more at every one after the first (\(added.map { "+\($0)" }.joined(separator: " ")))"
        let what: String =
            switch growth.kind {
            case .objects(let type): "\(Trace.shortTypeName(type)) objects"
            case .subscriptions(let site): "subscriptions made at \(site)"
            case .nodes(let site): "\(noun(growth.kind, growth.newest, in: model)) made at \(site)"
            }
        let counts = growth.counts.map(String.init).joined(separator: ", ")
        return "\(what) alive at each \"\(mark.label)\" (\(mark.site)): \(counts), \(increase)"
    }

    /// What grows, for the message: no line, no count.
    private func noun(_ kind: Class, _ newest: ObjectID, in model: LeakModel) -> String {
        switch (kind, model.object(newest)?.role) {
        case (.objects(let type), _): "\(Trace.shortTypeName(type)) objects"
        case (.subscriptions, .subscription(let id)?): "subscriptions to \(model.trace.subscriptions[id].map { model.nodeSubject($0.node).name } ?? "a signal")"
        case (.nodes, .node(let id)?): "\(model.nodeSubject(id).name) signals"
        default: "signals"
        }
    }

    private func subject(_ growth: Growth, in model: LeakModel) -> FindingSubject {
        switch (growth.kind, model.object(growth.newest)?.role) {
        case (.subscriptions, .subscription(let id)?): model.trace.subscriptions[id].map { model.nodeSubject($0.node) } ?? model.objectsSubject([growth.newest])
        case (.nodes, .node(let id)?): model.nodeSubject(id)
        default: model.objectsSubject([growth.newest])
        }
    }
}

extension Checkpoint {
    /// How many checkpoints of one series (one label, one site) the growth rule needs to
    /// tell growth from a warm-up: a first, and two that each add to it.
    public static let seriesForGrowth = 3
}

extension RuleID {
    /// What grows at every checkpoint of a repeated scenario.
    public static let growsPerRepetition = RuleID("grows-per-repetition")
}
