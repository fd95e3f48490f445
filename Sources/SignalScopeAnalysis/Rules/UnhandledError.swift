import SignalScopeTracing

/// An error reached a subscriber that had no error handler: it was silently lost.
struct UnhandledError: Analyzer {
    static let rule = RuleID.unhandledError
    static let severity = Severity.warning
    static let summary = "An error reached a subscriber that has no error handler."
    static let facts: [any TraceFact.Type] = [FailedSubscriptions.self]

    func analyze(_ model: inout LeakModel) -> [Finding] {
        (model.trace.fact(FailedSubscriptions.self)?.subscriptions ?? []).compactMap { subscription in
            guard !subscription.handlers.contains(.error), case .error(let description) = subscription.ending else { return nil }
            return Finding(
                rule: Self.rule, severity: Self.severity,
                message: "an error reached a subscriber with no error handler: \(description)",
                subject: model.nodeSubject(subscription.node),
                location: subscription.site,
                steps: ["\(model.subscriptionLabel(subscription.id)) received error(\(description))"],
                hint: "handle errors in subscribe(error:), or recover upstream with catch",
                entities: [.subscription(subscription.id)])
        }
    }
}

extension RuleID {
    /// An error that reached a subscriber without an error handler.
    public static let unhandledError = RuleID("unhandled-error")
}
