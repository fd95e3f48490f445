import SignalScope
import SignalScopeTracing

/// A closure SignalScope keeps (an observer, an operator's closure, a signal's creation
/// block, a command's block) strongly captures an object that keeps that closure alive
/// through its own stored properties: the RACObserve-captures-self trap,
/// `self.save = Command { _ in self.api.save() }`, `self.active = Signal { _ in self... }`.
///
/// Proven two ways: the object and the closure are in a cycle of strong references that
/// nothing outside holds (garbage), running through nothing but the object, the runtime and
/// what closures keep their captures in; or nothing but the runtime holds the object, and
/// it holds the only handle that could end the subscription whose closure captures it (its
/// disposable), as in `self.disposable = timer.subscribeNext { self... }`.
struct SelfCapturedObserver: Analyzer {
    static let rule = RuleID.selfCapturedObserver
    static let severity = Severity.error
    static let summary = "An object is captured by a closure the runtime keeps (an observer, an operator, a creation block, a command) that it keeps alive itself, so neither is freed."

    func analyze(_ model: inout LeakModel) -> [Finding] {
        var findings: [Finding] = []
        for (index, cycle) in model.cycles.enumerated() where model.concernsThisTrace(cycle) {
            guard let blame = model.blame(ofCycle: index), blame.isSelfCapture else { continue }
            if let site = blame.subscriberSite {
                findings.append(model.claim(Set(cycle), by: finding(heldBySubscriberAt: site, blame, cycle: cycle, model), keptWithThem: model.dependents(of: cycle)))
                continue
            }
            guard !blame.closures.isEmpty else { continue }
            let capture = Capture(
                object: blame.owner, captures: blame.closures.map { ($0.site, $0.closure, $0.around) }, handle: [], isGarbage: true,
                claims: Set(cycle))
            findings.append(model.claim(capture.claims, by: finding(for: capture, model), keptWithThem: model.dependents(of: cycle)))
        }
        findings += logicalCaptures(&model)
        return findings
    }

    /// One object captured by closures the runtime keeps, and the chains that prove it: one
    /// finding however many closures capture it, located at the first (the others are named
    /// in it).
    private struct Capture {
        let object: ObjectID
        /// Each closure that captures it, by site, with the chain from the object (or the
        /// subscription that keeps the closure) to the capture.
        let captures: [(site: TraceSite, closure: TraceHeap.Closure, chain: [TraceHeap.Reference])]
        /// How the object holds the subscription's disposable (for a capture that is not
        /// garbage).
        let handle: [TraceHeap.Reference]
        let isGarbage: Bool
        let claims: Set<ObjectID>
        /// The references to cut: each closure's capture of the object.
        var blamed: [TraceHeap.Reference] { captures.compactMap(\.chain.last) }
    }

    /// Objects nothing but the runtime holds, that the program no longer uses, and that hold
    /// the disposable of a subscription whose closures capture them (or of one that keeps
    /// the signal whose closure captures them): `self.bag += timer.map(format).subscribeNext(show)`.
    private func logicalCaptures(_ model: inout LeakModel) -> [Finding] {
        var findings: [Finding] = []
        let candidates = model.heap.objects.keys.filter { model.isUser($0) && !model.inUse($0) }
        // An owner before the helpers it keeps (a sharing operator's state, however early
        // it was made), which leak with it and are named in its finding.
        for object in model.leakOrder(candidates) where !model.claimed.contains(object) {
            guard let keepers = model.runtimeKeepers(of: object) else { continue }
            // Found once per object, not per keeper: thousands of subscriptions capturing one
            // screen that holds none of their handles cost one walk.
            let handles = heldDisposables(by: object, model)
            guard !handles.isEmpty else { continue }
            var bySite: [TraceSite: (site: TraceSite, closure: TraceHeap.Closure, chain: [TraceHeap.Reference])] = [:]
            var handle: [TraceHeap.Reference]?
            for keeper in keepers.sorted() {
                guard let held = handleChain(ending: keeper, among: handles, model) else { continue }
                let chain = model.chain(from: keeper, to: object)
                guard let (site, closure) = model.fixSite(of: chain), bySite[site] == nil else { continue }
                bySite[site] = (site, closure, chain)
                if handle == nil { handle = held }
            }
            let captures = bySite.values.sorted { ($0.site.file, $0.site.line) < ($1.site.file, $1.site.line) }
            guard let handle, !captures.isEmpty,
                model.concernsThisTrace(handle.map(\.from) + captures.flatMap { $0.chain.map(\.from) })
            else { continue }
            let capture = Capture(
                object: object, captures: captures, handle: handle, isGarbage: false,
                claims: Set(captures.flatMap { $0.chain.map(\.from) }).union([object]).union(model.keptAlive(by: [object])))
            findings.append(model.claim(capture.claims, by: finding(for: capture, model)))
        }
        return findings
    }

    /// The disposables of subscriptions that `object` holds, each with the chain by which
    /// it does: through anything but a signal, a subscription or another disposable (its own
    /// helpers, a dispose bag of its own class, included).
    private func heldDisposables(by object: ObjectID, _ model: LeakModel) -> [ObjectID: [TraceHeap.Reference]] {
        var previous: [ObjectID: TraceHeap.Reference] = [:]
        var seen: Set<ObjectID> = [object]
        var frontier = [object]
        var found: [ObjectID: [TraceHeap.Reference]] = [:]
        while !frontier.isEmpty {
            var next: [ObjectID] = []
            for holder in frontier {
                for reference in model.references(from: holder) where seen.insert(reference.to).inserted {
                    previous[reference.to] = reference
                    switch model.object(reference.to)?.role {
                    case .disposable?:
                        var chain = [reference]
                        while let step = previous[chain[0].from] { chain.insert(step, at: 0) }
                        found[reference.to] = chain
                    case nil: next.append(reference.to)
                    case .some: continue
                    }
                }
            }
            frontier = next
        }
        return found
    }

    /// The chain to the handle among `handles` that ends `keeper`: the disposable of the
    /// subscription it is (or of a subscription that led to it), or, for a signal, of a
    /// subscription to it.
    private func handleChain(
        ending keeper: ObjectID, among handles: [ObjectID: [TraceHeap.Reference]], _ model: LeakModel
    ) -> [TraceHeap.Reference]? {
        var subscriptions: [SubscriptionID] = []
        switch model.object(keeper)?.role {
        case .subscription(let id)?: subscriptions = [id]
        case .node(let node)?:
            subscriptions = model.references(to: keeper).compactMap { reference in
                guard case .subscription(let id)? = model.object(reference.from)?.role,
                    model.trace.subscriptions[id]?.node == node
                else { return nil }
                return id
            }
        default: return nil
        }
        for subscription in subscriptions {
            var current: SubscriptionID? = subscription
            var depth = 0
            while let id = current, depth < 64 {
                if let disposable = model.object(for: .disposable(id)), let chain = handles[disposable] { return chain }
                current = model.trace.subscriptions[id]?.parent
                depth += 1
            }
        }
        return nil
    }

    private func finding(for capture: Capture, _ model: LeakModel) -> Finding {
        var description = PathDescription(model, blamed: capture.blamed)
        let name = model.objectLabel(capture.object)
        let named = model.label(.object(capture.object))
        let first = capture.captures[0]
        let (what, hint) = Self.wording(first.closure.role)
        var path = description.lines(capture.handle) + description.lines(first.chain)
        path += model.alsoCapturedLine(capture.captures.dropFirst().map { ($0.site, $0.closure) }, name: named)
        let message: String
        if capture.isGarbage {
            message = "\(name) is captured by \(what) it keeps alive, so neither is ever freed"
            path.append("nothing else holds \(named) or what it keeps: every strong reference to them comes from this cycle")
            path += model.dependentsLine(Array(capture.claims))
        } else {
            message = "\(name) is captured by \(what) it keeps running by holding its disposable, so neither is freed while the signal runs"
            path.append("nothing else holds \(named): every strong reference to it comes from closures of live signals")
        }
        let chains = capture.captures.flatMap(\.chain)
        return Finding(
            rule: Self.rule, severity: Self.severity, message: message, subject: model.objectsSubject([capture.object]),
            location: first.site, steps: path, hint: capture.captures.count > 1 ? "\(hint), and in each other closure named above" : hint,
            entities: model.traceEntities(capture.handle.map(\.from) + chains.map(\.from) + [capture.object]),
            evidence: capture.handle + first.chain)
    }

    /// An object held by a library's subscriber of a subscription it keeps alive, the way a
    /// closure captures it (`assign(to: \.count, on: self)`), located where the subscription
    /// was made.
    private func finding(heldBySubscriberAt site: TraceSite, _ blame: Blame, cycle: [ObjectID], _ model: LeakModel) -> Finding {
        var description = PathDescription(model, blamed: blame.references)
        let name = model.objectLabel(blame.owner)
        var path = description.lines(blame.around)
        path.append("nothing else holds \(model.label(.object(blame.owner))) or what it keeps: every strong reference to them comes from this cycle")
        path += model.dependentsLine(cycle)
        return Finding(
            rule: Self.rule, severity: Self.severity,
            message: "\(name) is held by the subscriber of a subscription it keeps alive, so neither is ever freed",
            subject: model.objectsSubject([blame.owner]), location: site, steps: path,
            hint: "let the subscriber hold \(name) weakly (a sink with [weak self]; for a @Published property, assign(to: &$property)), or end the subscription when \(name) goes away",
            entities: model.traceEntities(blame.around.map(\.from) + [blame.owner]), evidence: blame.around)
    }

    /// What kind of closure captured the object, and the usual fix.
    static func wording(_ role: String?) -> (what: String, hint: String) {
        switch role {
        case ClosureRole.next.rawValue, ClosureRole.error.rawValue, ClosureRole.completed.rawValue:
            ("the observer of a subscription", "capture [weak self] in the observer, or end the subscription with takeUntil(lifetime.ended)")
        case ClosureRole.creationBlock.rawValue:
            ("the creation block of a signal", "capture [weak self] in the creation block, or do not store the signal on the object it captures")
        case ClosureRole.execution.rawValue:
            ("the block of a command", "capture [weak self] in the command's block; when an inner closure captures self weakly, the outer one must too")
        case let role?:
            ("the \(role) of an operator on a signal", "capture [weak self] in the \(role) (and in every closure the path names that captures it)")
        case nil:
            ("a closure of a signal", "capture [weak self] in the closure the path names")
        }
    }
}

extension RuleID {
    /// A kept closure capturing an object that keeps that closure alive.
    public static let selfCapturedObserver = RuleID("self-captured-observer")
}
