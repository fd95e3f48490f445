import SignalScopeTools

/// What `check` reports: the findings, which of them the baseline already accepts, and
/// which of them fail the run.
struct CheckReport {
    struct Entry {
        let finding: Finding
        /// Listed in the baseline: reported, never failing.
        let isBaseline: Bool
        /// Fails the run under `--fail-on`.
        let isFailing: Bool
        /// The finding's file relative to the current directory, where it could be found.
        let path: String
        /// The finding's proving path, one step each, with every source site in it resolved
        /// as ``path`` is: one style of path throughout a report.
        let steps: [String]

        /// The message, the proving path one step a line, and the fix: the body every
        /// format that has room for one shows.
        var details: String {
            ([finding.message] + steps + ["fix: \(finding.hint)"]).joined(separator: "\n")
        }
    }

    let entries: [Entry]
    /// Warnings met while reading the trace (a truncated tail).
    let traceWarnings: [String]
    /// What kept the analysis from seeing the whole heap (``AnalysisReport/limitations``).
    let limitations: [String]
    /// Whether the limitations fail the check: it cannot say there is no leak.
    let isIncompleteFailing: Bool

    /// Judges `findings`: those `baseline` lists never fail; the rest fail at or above
    /// `threshold`. Files are resolved against the current directory. `limitations` fail
    /// the check unless `allowingIncomplete`.
    init(
        findings: [Finding], threshold: FailureThreshold, baseline: Baseline? = nil, traceWarnings: [String],
        limitations: [String] = [], allowingIncomplete: Bool = false
    ) {
        let resolver = SourceResolver()
        entries = findings.map { finding in
            let isBaseline = baseline?.contains(finding) ?? false
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

    var failing: [Entry] { entries.filter(\.isFailing) }

    func count(_ severity: Severity) -> Int { entries.count { $0.finding.severity == severity } }
}

/// The lowest severity that fails a run.
enum FailureThreshold: String, CaseIterable {
    case error, warning, never

    func fails(_ severity: Severity) -> Bool {
        switch self {
        case .error: severity == .error
        case .warning: severity == .error || severity == .warning
        case .never: false
        }
    }
}
