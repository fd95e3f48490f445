import SignalScope
import SignalScopeTracing

/// A subscription made by user code is still live at the end (its source never
/// terminated), nothing but the subscription itself holds its disposable (or the disposable
/// its library handed the program was freed), and no `takeUntil`, `take`, `takeWhile` or
/// `timeout` bounds it: nothing can ever stop it. Or such
/// a subscription that outlived the object that made it: made in a method of a class with
/// `[weak self]`, and that object freed before the end (a cancellable stored in an app-wide
/// set rather than in the screen it was for). Or a property binding that a later binding
/// into the same property superseded, both still live.
struct LeakedSubscription: Analyzer {
    static let rule = RuleID.leakedSubscription
    static let severity = Severity.warning
    static let summary = "A subscription to a signal that never ends runs forever because its disposable was dropped."

    func analyze(_ model: inout LeakModel) -> [Finding] {
        var findings: [Finding] = []
        let freed = model.trace.droppedDisposables
        for (subscription, object) in unending(model) where !model.claimed.contains(object) {
            let evidence: FindingStep, hint: String
            if freed.contains(subscription.id) {
                // A library's subscription that does not keep its disposable: the program's
                // was its only copy.
                evidence = "the disposable its library returned for it was freed: nothing can end it"
                hint = "keep what subscribing returned (its cancellable or disposable) and cancel it when done"
            } else if let disposable = model.object(for: .disposable(subscription.id)), model.runtimeKeepers(of: disposable) == [object] {
                evidence = "nothing but the subscription itself holds its disposable"
                hint = "keep the disposable and dispose it, or end the subscription with takeUntil(lifetime.ended)"
            } else {
                continue
            }
            findings.append(claim(
                subscription, object, in: &model,
                message: "a subscription to \(model.nodeSubject(subscription.node).name) never ends and its disposable was dropped",
                evidence: [evidence], hint: hint))
        }
        return findings + outlivedOwners(&model) + supersededBindings(&model)
    }

    /// The subscriptions user code made that are live at the end, on a source that never
    /// ends, with the object each is (not garbage: a cycle is another rule's).
    private func unending(_ model: LeakModel) -> [(Trace.Subscription, ObjectID)] {
        model.trace.subscriptions.values.sorted(by: { $0.id < $1.id }).compactMap { subscription in
            guard subscription.parent == nil, subscription.retainCountAtEnd != nil, !model.isBounded(subscription.node),
                let object = model.object(for: .subscription(subscription.id)), !model.garbage.contains(object)
            else { return nil }
            return (subscription, object)
        }
    }

    /// The finding about an unending subscription, claiming what only it keeps (the observer's
    /// captures the program no longer uses), which leaks with it: one leak, one finding.
    private func claim(
        _ subscription: Trace.Subscription, _ object: ObjectID, in model: inout LeakModel, message: String, evidence: [FindingStep],
        hint: String
    ) -> Finding {
        let kept = model.keptAlive(by: [object], stoppingAt: model.claimed)
        return model.claim(kept, by: Finding(
            rule: Self.rule, severity: Self.severity, message: message, subject: model.nodeSubject(subscription.node),
            location: subscription.site,
            steps: ["\(model.subscriptionLabel(subscription.id)) is still live: its source never terminated"] + evidence
                + model.keptAliveLine(kept, except: [object]),
            hint: hint, entities: [.subscription(subscription.id)]))
    }

    /// Subscriptions user code made in a method of a class, live at the end with a source that
    /// never ends, whose observer captured that class's object weakly (`[weak self]`), freed by
    /// then, and nothing else weakly: the object it was for is gone, and it keeps running for
    /// nobody, kept by whatever holds its cancellable (an app-wide set). The evidence is the
    /// heap's, the capture the walk found nil, and the site's: the method that subscribed is
    /// the freed object's class's. A subscription made for an object by code outside it is that
    /// code's to end, and is not judged.
    private func outlivedOwners(_ model: inout LeakModel) -> [Finding] {
        var findings: [Finding] = []
        for (subscription, object) in unending(model) where !model.claimed.contains(object) {
            // The observer's closures, and the boxes their `[weak x]` captures may be kept in.
            var contexts: Set<ObjectID> = []
            var frontier = [object]
            for _ in 0..<3 {
                frontier = frontier.flatMap { model.heap.references(from: $0).map(\.to) }
                    .filter { model.object($0)?.category == .closureContext && contexts.insert($0).inserted }
            }
            let freed = contexts.compactMap { model.object($0) }.filter { $0.freedWeakCaptures > 0 }
            let stillWeaklyCaptured = contexts.contains { context in model.heap.references(from: context).contains(where: \.isWeak) }
            guard !stillWeaklyCaptured,
                let owner = freed.lazy.compactMap(\.freedWeakReferent).first(where: { Self.isMethod(subscription.site.function, of: $0) })
            else { continue }
            let ownerName = Self.unqualified(owner)
            let chain = model.retainingChain(to: object)
            // The reference to cut: where the last of the program's objects on the way keeps the
            // cancellable (an app-wide set).
            var description = PathDescription(model, blamed: chain.last { model.isUser($0.from) }.map { [$0] } ?? [])
            let holders: [FindingStep] =
                chain.isEmpty
                ? ["it is held from outside what the heap walk reached: by a global, a static or a thread's stack"]
                : ["it is held by:"] + description.lines(chain)
            findings.append(claim(
                subscription, object, in: &model,
                message: "a subscription to \(model.nodeSubject(subscription.node).name) that \(ownerName) made outlived it and never ends",
                evidence: ["its closure captured \(ownerName) weakly, and \(ownerName) was freed before the end: the subscription runs for nobody"]
                    + holders,
                hint: "keep its cancellable (or disposable) in \(ownerName), so that it ends with it, or cancel it when \(ownerName) goes"))
        }
        return findings
    }

    /// Whether `function` (a site's, as debug information names it) is a method of `type`, or
    /// a closure in one: `ClockScreen.start()`, `closure #1 in ClockScreen.start()`.
    private static func isMethod(_ function: String, of type: String) -> Bool {
        let name = unqualified(type)
        return !name.isEmpty && (function.hasPrefix(name + ".") || function.contains(" in " + name + "."))
    }

    /// A type's name without its module: `Screens.ClockScreen` is `ClockScreen`.
    private static func unqualified(_ type: String) -> String {
        guard let dot = type.firstIndex(of: "."), !type[..<dot].contains("<") else { return type }
        return String(type[type.index(after: dot)...])
    }

    /// Bindings into one property (`property.bind(to:)`) that a later binding into it
    /// superseded while they stayed live: both keep setting it (a recycled cell bound to each
    /// item it shows, every item it ever showed still writing into it). The binding's
    /// disposable belongs to the property, so nothing leaks that trial deletion could see:
    /// the evidence is two live bindings into one target.
    private func supersededBindings(_ model: inout LeakModel) -> [Finding] {
        var byTarget: [NodeID: [Trace.Subscription]] = [:]
        for subscription in model.trace.subscriptions.values where subscription.retainCountAtEnd != nil {
            if let target = subscription.bindingTarget { byTarget[target, default: []].append(subscription) }
        }
        var findings: [Finding] = []
        for (target, bindings) in byTarget.sorted(by: { $0.key < $1.key }) where bindings.count > 1 {
            let ordered = bindings.sorted { $0.id < $1.id }
            let latest = ordered[ordered.count - 1]
            for stale in ordered.dropLast() {
                let targetName = model.nodeSubject(target).name
                let finding = Finding(
                    rule: Self.rule, severity: Self.severity,
                    message: "an earlier binding into \(targetName) is still live and keeps setting it beside a later binding",
                    subject: model.nodeSubject(target),
                    location: stale.site,
                    steps: ["\(model.subscriptionLabel(stale.id)) binds \(model.nodeLabel(target)) and is still live",
                           "\(model.subscriptionLabel(latest.id)), made later, binds it too: both set it whenever their sources send"],
                    hint: "end the earlier binding before binding again: bind source.takeUntil(the reuse signal), or keep the binding's disposable and dispose it first",
                    entities: [.subscription(stale.id), .subscription(latest.id), .node(target)])
                findings.append(model.claim(model.object(for: .subscription(stale.id)).map { [$0] } ?? [], by: finding))
            }
        }
        return findings
    }
}

extension RuleID {
    /// A subscription nothing can end, or a binding a later one superseded.
    public static let leakedSubscription = RuleID("leaked-subscription")
}
