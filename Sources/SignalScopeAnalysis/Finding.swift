import SignalScope
import SignalScopeTracing

/// How serious a finding is.
public enum Severity: String, Sendable, Hashable, Comparable, CaseIterable {
    case error, warning, note

    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// The rules; their ids are part of SignalScope's contract and appear in every report.
public enum RuleID: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case selfCapturedObserver = "self-captured-observer"
    case neverCompletedSubject = "never-completed-subject"
    case retainCycle = "retain-cycle"
    case leakedSubscription = "leaked-subscription"
    case keptAliveBySignal = "kept-alive-by-signal"
    case repeatedColdSubscription = "repeated-cold-subscription"
    case eventAfterTerminal = "event-after-terminal"
    case unhandledError = "unhandled-error"

    public var description: String { rawValue }
}

/// One problem an analyzer found, with its proof and the usual fix.
public struct Finding: Sendable, Hashable, CustomStringConvertible {
    /// The rule that found it; its id is stable and documented in `docs/analyzers.md`.
    public let rule: RuleID
    /// How serious it is: errors are proven leaks, warnings likely problems, notes hints.
    public let severity: Severity
    /// What is wrong, in one sentence.
    public let message: String
    /// Where the leaking subscription, subject or signal was created.
    public let location: TraceSite
    /// The chain of strong references (or events) that proves it, one labelled step each.
    public let path: [String]
    /// The usual fix.
    public let hint: String
    /// How many times the same problem occurred at the same place (grouped into one).
    public internal(set) var count: Int
    /// The nodes, subscriptions and objects the finding is about (of every grouped
    /// occurrence), for tools that highlight them.
    public internal(set) var entities: [TraceEntity]
    /// For a leak proven on the heap: the strong references its path describes, in order
    /// (of its first occurrence), so that a tool or a test can check each against the heap.
    public let evidence: [TraceHeap.Reference]

    /// Makes a finding; analyzers do, and tools that merge reports may.
    public init(
        rule: RuleID, severity: Severity, message: String, location: TraceSite, path: [String], hint: String,
        entities: [TraceEntity] = [], evidence: [TraceHeap.Reference] = [], count: Int = 1
    ) {
        self.rule = rule
        self.severity = severity
        self.message = message
        self.location = location
        self.path = path
        self.hint = hint
        self.entities = entities
        self.evidence = evidence
        self.count = count
    }

    public var description: String {
        let times = count > 1 ? " (×\(count))" : ""
        return "\(location): \(severity): [\(rule)] \(message)\(times)\n"
            + path.map { "    \($0)" }.joined(separator: "\n") + "\n    fix: \(hint)"
    }
}

/// Everything the analyzers found in a trace, errors first, and what they could not see.
public struct AnalysisReport: Sendable {
    /// Every finding, errors first, the same problem at the same place grouped into one.
    public let findings: [Finding]
    /// What kept the analysis from seeing the whole heap, one sentence each (no closing
    /// snapshot, unreadable memory, a heap walk that ran out of budget): leaks there may
    /// be missing. Empty when the analysis saw everything; `check` fails otherwise.
    public let limitations: [String]

    /// The findings of `severity`.
    public func findings(_ severity: Severity) -> [Finding] { findings.filter { $0.severity == severity } }
}
