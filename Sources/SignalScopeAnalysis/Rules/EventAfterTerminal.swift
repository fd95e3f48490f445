import SignalScopeTracing

/// Something was sent after a terminal event; the runtime dropped it. The finding points at
/// the line of user code that sent it, and its path lists the user frames of that send.
struct EventAfterTerminal: Analyzer {
    static let rule = RuleID.eventAfterTerminal
    static let severity = Severity.warning
    static let summary = "An event was sent after the terminal event, and was dropped."

    func analyze(_ model: inout LeakModel) -> [Finding] {
        model.trace.violations.map { violation in
            let node = violation.node
            let target = violation.subscription.map { model.subscriptionLabel($0) } ?? model.nodeLabel(node)
            return Finding(
                rule: Self.rule, severity: Self.severity,
                message: "\(violation.event.rawValue) was sent to \(model.nodeSubject(node).name) after its terminal event and dropped",
                subject: model.nodeSubject(node),
                location: violation.site ?? model.trace.nodes[node]?.site ?? LeakModel.unknownSite,
                steps: ["sent to \(target)"] + violation.stack.split(separator: "\n").map { "at \($0)" },
                hint: "send nothing after completed or error; check for a second completion path",
                entities: [.node(node)] + (violation.subscription.map { [.subscription($0)] } ?? []))
        }
    }
}

extension RuleID {
    /// Something was sent after a terminal event, and dropped.
    public static let eventAfterTerminal = RuleID("event-after-terminal")
}
