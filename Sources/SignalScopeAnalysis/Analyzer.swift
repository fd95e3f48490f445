import SignalScopeTracing

/// One rule: reads the model of what was alive at the end of a trace, reports findings,
/// and claims what it explained so that later rules do not report it again.
protocol Analyzer: Sendable {
    static var rule: RuleID { get }
    func analyze(_ model: inout LeakModel) -> [Finding]
}

enum Analyzers {
    /// Every rule, in the order they run. Order matters: the specific explanations of a leak
    /// (a self-capture cycle, then a never-completed subject) claim its entities before the
    /// general ones (any retain cycle, then what is merely kept alive) look at them.
    static let standard: [any Analyzer] = [
        SelfCapturedObserver(),
        NeverCompletedSubject(),
        RetainCycle(),
        LeakedSubscription(),
        KeptAliveBySignal(),
        RepeatedColdSubscription(),
        EventAfterTerminal(),
        UnhandledError(),
    ]
}

extension Trace {
    /// Runs every analyzer over the trace (see `docs/analyzers.md`). Findings judge liveness
    /// by the trace's closing snapshot: a cycle a terminal event broke is not a finding.
    public func analyze() -> AnalysisReport {
        var model = LeakModel(self)
        var findings: [Finding] = []
        for analyzer in Analyzers.standard { findings += analyzer.analyze(&model) }
        return AnalysisReport(findings: AnalysisReport.grouped(findings))
    }
}

extension AnalysisReport {
    /// The findings of several traces as one report, for a command whose processes each
    /// wrote a trace (`swift test` runs its test binary more than once): the same problem at
    /// the same place in several of them is one finding whose count adds theirs.
    public init(merging reports: [AnalysisReport]) {
        self.init(findings: Self.grouped(reports.flatMap(\.findings)))
    }

    /// The same problem at the same place is one finding with a count; errors come first.
    static func grouped(_ findings: [Finding]) -> [Finding] {
        var groups: [Finding] = []
        for finding in findings {
            if let index = groups.firstIndex(where: {
                $0.rule == finding.rule && $0.location == finding.location && $0.message == finding.message
            }) {
                groups[index].count += finding.count
                groups[index].entities += finding.entities
            } else {
                groups.append(finding)
            }
        }
        return groups.enumerated().sorted { lhs, rhs in
            (lhs.element.severity, lhs.offset) < (rhs.element.severity, rhs.offset)
        }.map(\.element)
    }
}
