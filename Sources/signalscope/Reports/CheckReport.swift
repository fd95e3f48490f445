import SignalScope

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
    }

    let entries: [Entry]
    /// Warnings met while reading the trace (a truncated tail).
    let traceWarnings: [String]

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
