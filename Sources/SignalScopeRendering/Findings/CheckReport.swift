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
        public let steps: [String]

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
                steps: finding.path.map { Self.resolvingSites(in: $0, with: resolver) })
        }
        self.traceWarnings = traceWarnings
        self.limitations = limitations
        isIncompleteFailing = !limitations.isEmpty && !allowingIncomplete
    }

    /// `step` with each `Module/File.swift:line` site in it (as traces store them) replaced
    /// by the file's resolved path; a file the resolver cannot find stays as it was.
    private static func resolvingSites(in step: String, with resolver: SourceResolver) -> String {
        step.replacing(Self.site) { match in
            // A longer path (a symbolicated frame's project-relative file) is already a path.
            match.output.1 == nil ? "\(resolver.path(for: String(match.output.2))):" : String(match.output.0)
        }
    }

    /// A site as a trace stores it in a path step: a module folder, a Swift file, a colon
    /// before the line; with whatever folders come before it, so that those are told apart.
    nonisolated(unsafe) private static let site = /([^\s():]*\/)?([A-Za-z0-9_.\-]+\/[^\s\/():]+\.swift):(?=\d)/

    /// The entries that fail the run.
    public var failing: [Entry] { entries.filter(\.isFailing) }

    /// How many findings have `severity`.
    public func count(_ severity: Severity) -> Int { entries.count { $0.finding.severity == severity } }
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
