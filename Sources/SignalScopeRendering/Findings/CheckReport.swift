import SignalScope
import SignalScopeAnalysis

/// What `check` reports: the findings, which of them the baseline already accepts, and
/// which of them fail the run. Every ``FindingsFormat`` writes one.
public struct CheckReport: Sendable {
    public struct Entry: Sendable {
        public let finding: Finding
        /// Listed in the baseline: reported, never failing.
        public let isBaseline: Bool
        /// Fails the run under `--fail-on`.
        public let isFailing: Bool
        /// The finding's file relative to the current directory, where it could be found.
        public let path: String
        /// The finding's proving path, one step each, with every source site in it resolved
        /// as ``path`` is: one style of path throughout a report.
        public var steps: [String] { located.map(\.text) }
        /// The positions in ``steps`` of the suspect links: the references to cut.
        public var suspectSteps: [Int] { located.indices.filter { located[$0].mark == .suspect } }
        /// The proving steps with the place each one is at: its first source site, resolved.
        public let located: [LocatedStep]

        /// The message, the proving path one step a line, and the fix: the body every
        /// format that has room for one shows.
        public var details: String {
            ([finding.message] + steps + ["fix: \(finding.hint)"]).joined(separator: "\n")
        }
    }

    public let entries: [Entry]
    /// Warnings met while reading the trace (a truncated tail).
    public let traceWarnings: [String]
    /// What kept the analysis from seeing the whole heap (``AnalysisReport/limitations``).
    public let limitations: [String]
    /// Whether the limitations fail the check: it cannot say there is no leak.
    public let isIncompleteFailing: Bool

    /// Judges `findings`: those whose fingerprint `baseline` holds never fail; the rest fail
    /// at or above `threshold`. Files are resolved against the current directory.
    /// `limitations` fail the check unless `allowingIncomplete`.
    public init(
        findings: [Finding], threshold: FailureThreshold, baseline: Set<String> = [], traceWarnings: [String],
        limitations: [String] = [], allowingIncomplete: Bool = false
    ) {
        let resolver = SourceResolver()
        entries = findings.map { finding in
            let isBaseline = baseline.contains(finding.fingerprint)
            return Entry(
                finding: finding, isBaseline: isBaseline,
                isFailing: !isBaseline && threshold.fails(finding.severity),
                path: resolver.path(for: finding.location.file),
                located: finding.steps.map { step in
                    LocatedStep(
                        text: step.phrased { "\(resolver.path(for: $0.file)):\($0.line)" },
                        sites: step.sites.map { (resolver.path(for: $0.file), $0.line) }, step: step)
                })
        }
        self.traceWarnings = traceWarnings
        self.limitations = limitations
        isIncompleteFailing = !limitations.isEmpty && !allowingIncomplete
    }

    /// The entries that fail the run.
    public var failing: [Entry] { entries.filter(\.isFailing) }

    /// How many findings have `severity`.
    public func count(_ severity: Severity) -> Int { entries.count { $0.finding.severity == severity } }
}

/// A proving step in words, and where in the project it is, when it names a site.
public struct LocatedStep: Sendable, Hashable {
    /// The step, its sites written as project paths.
    public let text: String
    /// The step's first site: its file relative to the current directory, and the line.
    public var path: String? { sites.first?.path }
    public var line: Int? { sites.first?.line }
    /// Every site the step names, in order, each resolved as ``path`` is.
    public let sites: [Site]
    /// The step as data: what it names and the references it crosses.
    public let step: FindingStep
    /// For a link of a leak's chain: expected, or the suspect reference to cut.
    public var mark: FindingStep.Mark? { step.mark }

    /// A place in the project: a file relative to the current directory, and a line.
    public struct Site: Sendable, Hashable {
        public let path: String
        public let line: Int
    }

    init(text: String, sites: [(path: String, line: Int)], step: FindingStep) {
        self.text = text
        self.sites = sites.map { Site(path: $0.path, line: $0.line) }
        self.step = step
    }
}

/// The lowest severity that fails a run.
public enum FailureThreshold: String, CaseIterable, Sendable {
    case error, warning, never

    /// Whether a finding of `severity` fails the run.
    public func fails(_ severity: Severity) -> Bool {
        switch self {
        case .error: severity == .error
        case .warning: severity == .error || severity == .warning
        case .never: false
        }
    }
}
