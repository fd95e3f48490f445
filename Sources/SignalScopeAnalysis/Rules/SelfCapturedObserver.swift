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
        var captures: [Capture] = []
        for cycle in model.cycles {
            let members = Set(cycle)
            for object in cycle where model.isUser(object) {
                captures += garbageCaptures(of: object, in: members, model)
            }
        }
        captures = captures.filter { model.concernsThisTrace($0.chain.map(\.from) + [$0.object]) }
        var findings = captures.map { finding(for: $0, model) }
        for capture in captures { model.claimed.formUnion(capture.claims) }
        findings += logicalCaptures(&model)
        return findings
    }

    /// One object captured by one closure the runtime keeps, and the chain that proves it.
    private struct Capture {
        let object: ObjectID
        let site: TraceSite
        let closure: TraceHeap.Closure
        /// How the object holds the subscription's disposable (for a capture that is not
        /// garbage), then from the object (or the subscription) to the capture.
        let handle: [TraceHeap.Reference]
        let chain: [TraceHeap.Reference]
        let isGarbage: Bool
        let claims: Set<ObjectID>
    }

    /// The cycles through `object` that pass no other user object, one per closure site.
    private func garbageCaptures(of object: ObjectID, in members: Set<ObjectID>, _ model: LeakModel) -> [Capture] {
        var bySite: [TraceSite: Capture] = [:]
        let plumbing = { (id: ObjectID) in members.contains(id) && !model.isUser(id) }
        for reference in model.references(to: object) where plumbing(reference.from) {
            let back = model.path(from: object, to: { $0 == reference.from }, through: plumbing)
            guard !back.isEmpty else { continue }
            let chain = back + [reference]
            guard let (site, closure) = model.fixSite(of: chain) else { continue }
            if let known = bySite[site], known.chain.count <= chain.count { continue }
            // The cycle's other plumbing (a subject's own cycle with its subscribers) is the
            // same leak: fixing this capture is what the user does first.
            bySite[site] = Capture(
                object: object, site: site, closure: closure, handle: [], chain: chain, isGarbage: true,
                claims: members.filter { !model.isUser($0) }.union([object]))
        }
        return bySite.values.sorted { ($0.site.file, $0.site.line) < ($1.site.file, $1.site.line) }
    }

    /// Objects nothing but the runtime holds, that hold the disposable of the subscription
    /// whose closures capture them.
    private func logicalCaptures(_ model: inout LeakModel) -> [Finding] {
        var findings: [Finding] = []
        for object in model.heap.objects.keys.sorted() where model.isUser(object) && !model.claimed.contains(object) {
            guard let keepers = model.runtimeKeepers(of: object) else { continue }
            var bySite: [TraceSite: Capture] = [:]
            for keeper in keepers.sorted() {
                guard case .subscription(let subscription)? = model.object(keeper)?.entity,
                    let handle = heldHandle(of: subscription, by: object, model)
                else { continue }
                let chain = model.chain(from: keeper, to: object)
                guard let (site, closure) = model.fixSite(of: chain), bySite[site] == nil else { continue }
                bySite[site] = Capture(
                    object: object, site: site, closure: closure, handle: handle, chain: chain, isGarbage: false,
                    claims: Set(chain.map(\.from)).union([object]))
            }
            for capture in bySite.values.sorted(by: { ($0.site.file, $0.site.line) < ($1.site.file, $1.site.line) })
            where model.concernsThisTrace(capture.handle.map(\.from) + capture.chain.map(\.from)) {
                findings.append(finding(for: capture, model))
                model.claimed.formUnion(capture.claims)
            }
        }
        return findings
    }

    /// The chain by which `object` holds the disposable of `subscription` or of a
    /// subscription that led to it (through its own plumbing), if it does.
    private func heldHandle(of subscription: SubscriptionID, by object: ObjectID, _ model: LeakModel) -> [TraceHeap.Reference]? {
        var current: SubscriptionID? = subscription
        var handles: Set<ObjectID> = []
        while let id = current {
            if let disposable = model.object(for: .disposable(id)) { handles.insert(disposable) }
            current = model.trace.subscriptions[id]?.parent
        }
        let chain = model.path(from: object, to: handles.contains, through: { !model.isLandmark($0) })
        return chain.isEmpty ? nil : chain
    }

    private func finding(for capture: Capture, _ model: LeakModel) -> Finding {
        var description = PathDescription(model)
        let name = model.objectLabel(capture.object)
        let (what, hint) = Self.wording(capture.closure.role)
        var path = description.lines(capture.handle) + description.lines(capture.chain)
        let message: String
        if capture.isGarbage {
            message = "\(name) is captured by \(what) it keeps alive, so neither is ever freed"
            path.append("nothing else holds \(name) or what it keeps: every strong reference to them comes from this cycle")
            path += model.dependentsLine(Array(capture.claims))
        } else {
            message = "\(name) is captured by \(what) it keeps running by holding its disposable, so neither is freed while the signal runs"
            path.append("nothing else holds \(name): every strong reference to it comes from closures of live signals")
        }
        return Finding(
            rule: Self.rule, severity: Self.severity, message: message, subject: model.objectsSubject([capture.object]),
            location: capture.site, steps: path, hint: hint,
            entities: model.traceEntities(capture.handle.map(\.from) + capture.chain.map(\.from) + [capture.object]),
            evidence: capture.handle + capture.chain)
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
