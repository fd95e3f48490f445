import SignalScope
import SignalScopeTracing

/// A subject that never sent a terminal event keeps its subscribers, which keep it (as
/// their source), and nothing else holds any of them: it and everything its subscribers
/// capture leak (the "a subject must send completed" trap). Properties, lifetimes and
/// command signals are not subjects here: they complete by themselves when their owner
/// goes away. A cycle that also runs through the app's own objects (a screen that stores
/// the subject and is captured by its observer) is not this: completing the subject from
/// its owner's deinit could never run, so it is a retain cycle. Which nodes are subjects
/// here is read from their traits: hot, and not completing by themselves.
struct NeverCompletedSubject: Analyzer {
    static let rule = RuleID.neverCompletedSubject
    static let severity = Severity.error
    static let summary = "A subject that never sent completed or error keeps its subscribers, and what they capture, alive in a cycle."

    func analyze(_ model: inout LeakModel) -> [Finding] {
        var findings: [Finding] = []
        for cycle in model.cycles where !cycle.contains(where: model.isUser) {
            let members = Set(cycle)
            for object in cycle where !model.claimed.contains(object) {
                guard case .node(let id)? = model.object(object)?.role, let node = model.trace.nodes[id],
                    node.traits.contains(.hot), !node.traits.contains(.completesByItself), node.terminatedAtEnd == false
                else { continue }
                let subscribers = cycle.filter { member in
                    guard case .subscription(let subscription)? = model.object(member)?.role else { return false }
                    return model.trace.subscriptions[subscription]?.node == id
                }
                guard let subscriber = subscribers.first, model.concernsThisTrace(cycle) else { continue }
                let within = { (candidate: ObjectID) in members.contains(candidate) && !model.isLandmark(candidate) }
                let keeps = model.path(from: object, to: { $0 == subscriber }, through: within)
                let source = model.path(from: subscriber, to: { $0 == object }, through: within)
                var description = PathDescription(model)
                var path: [FindingStep] = ["\(model.nodeLabel(id)) never sent completed or error"]
                path += description.lines(keeps) + description.lines(source)
                path.append("nothing else holds the subject or its subscribers: every strong reference to them comes from this cycle")
                path += model.dependentsLine(cycle)
                findings.append(model.claim(cycle, by: Finding(
                    rule: Self.rule, severity: Self.severity,
                    message: "\(model.nodeSubject(id).name) was never completed and leaks with its subscribers",
                    subject: model.nodeSubject(id),
                    location: node.site, steps: path,
                    hint: "send completed (or error) when its owner goes away, for example in deinit",
                    entities: model.traceEntities(cycle + model.dependents(of: cycle)), evidence: keeps + source),
                    keptWithThem: model.dependents(of: cycle)))
            }
        }
        return findings
    }
}

extension RuleID {
    /// A subject never completed, keeping its subscribers alive.
    public static let neverCompletedSubject = RuleID("never-completed-subject")
}
