import Foundation
import SignalScope
import SignalScopeTracing

/// How serious a finding is.
public enum Severity: String, Sendable, Hashable, Comparable, CaseIterable {
    case error, warning, note

    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// A rule's id: part of SignalScope's contract, it appears in every report, baseline and
/// `--rules` list. Each rule declares its own in its file under `Rules/`
/// (`extension RuleID { public static let retainCycle = RuleID("retain-cycle") }`); the
/// rules that exist are those `Analyzers.standard` runs, in that order.
public struct RuleID: RawRepresentable, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    public let rawValue: String

    /// The rule called `rawValue`, if one exists.
    public init?(rawValue: String) {
        guard let rule = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = rule
    }

    /// Declares a rule's id; only a rule's own file does.
    init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// Every rule, in the order the analysis runs them.
    public static var allCases: [RuleID] { Analyzers.standard.map { type(of: $0).rule } }

    public var description: String { rawValue }
}

/// What a finding is about, in terms that survive edits: names and the file and function
/// that made it, never a line, an identifier of one run, or a count.
public struct FindingSubject: Sendable, Hashable, Codable, CustomStringConvertible {
    /// What sort of thing the finding is about.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A signal, subject, property or operator (a node of the signal graph).
        case node
        /// Objects of the program, by type (one, or every user object of a cycle).
        case objects
    }

    /// What sort of thing it is.
    public let kind: Kind
    /// Its name: `subject "query"` or `map` for a node, the type names for objects.
    public let name: String
    /// The file that made it (a node's creation site), when known.
    public let file: String?
    /// The function that made it, when known.
    public let function: String?

    /// Makes a subject from its parts.
    public init(kind: Kind, name: String, file: String? = nil, function: String? = nil) {
        self.kind = kind
        self.name = name
        self.file = file
        self.function = function
    }

    public var description: String {
        guard let file, let function else { return name }
        return "\(name) made in \(function) (\(file))"
    }
}

/// One problem an analyzer found, with its proof and the usual fix.
public struct Finding: Sendable, Hashable, CustomStringConvertible {
    /// The rule that found it; its id is stable and documented in `docs/analyzers.md`.
    public let rule: RuleID
    /// How serious it is: errors are proven leaks, warnings likely problems, notes hints.
    public internal(set) var severity: Severity
    /// What is wrong, in one sentence with no line numbers and no counts (the location and
    /// the path carry those).
    public let message: String
    /// What the finding is about; with the rule and the location's file and function it
    /// makes the ``fingerprint``.
    public let subject: FindingSubject
    /// Where the leaking subscription, subject or signal was created.
    public let location: TraceSite
    /// The chain of strong references (or events) that proves it, one step each, as data
    /// each output phrases.
    public internal(set) var steps: [FindingStep]
    /// The steps in words, sites as the trace stores them.
    public var path: [String] { steps.map(\.description) }
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
    /// Whether the program declared that an object the finding is about should have been
    /// freed by then (`Tracer.expectDeallocation`, a leak check's `mustBeFreed`): a leak
    /// check's allowances (by rule, by type) do not excuse what the test itself said.
    public internal(set) var contradictsDeclaration = false
    /// Whether the finding shows something that grows with every repetition of a scenario
    /// (`grows-per-repetition`, or a finding about the same objects that took its steps): a
    /// growth check (`expectNoSignalGrowth`) fails on these.
    public internal(set) var showsGrowth = false
    /// The objects of the closing heap snapshot the finding accounts for (what its rule
    /// claimed, and what only they keep alive): a later finding about one of them is the
    /// same leak (``folded(_:)``).
    var explained: Set<ObjectID> = []
    /// What this finding adds to an earlier one that explains the same objects, instead of
    /// standing beside it: what the program declared about them (an object it said should be
    /// freed by a deadline, how it grew over repetitions); empty when it stands alone.
    var corroboration: [FindingStep] = []

    /// Makes a finding; analyzers do, and tools that merge reports may.
    public init(
        rule: RuleID, severity: Severity, message: String, subject: FindingSubject, location: TraceSite, steps: [FindingStep],
        hint: String, entities: [TraceEntity] = [], evidence: [TraceHeap.Reference] = [], count: Int = 1
    ) {
        self.rule = rule
        self.severity = severity
        self.message = message
        self.subject = subject
        self.location = location
        self.steps = steps
        self.hint = hint
        self.entities = entities
        self.evidence = evidence
        self.count = count
    }

    /// The finding's identity across edits and runs: 16 hexadecimal digits from the rule,
    /// the location's file and enclosing function, and the ``subject``; never a line or a
    /// count, so moving code, adding lines or repeating the problem keeps it. Baselines,
    /// SARIF `partialFingerprints` and grouping use it.
    public var fingerprint: String {
        let parts = [
            rule.rawValue, location.file, location.function, subject.kind.rawValue, subject.name,
            subject.file ?? "", subject.function ?? "",
        ]
        return String(format: "%016llx", StableHash.fnv1a(parts.joined(separator: "\u{0}")))
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

    /// A report of `findings` (in the order given) and `limitations`: for tools that judge a
    /// trace in their own terms (a live view says what a running program cannot show).
    public init(findings: [Finding], limitations: [String]) {
        self.findings = findings
        self.limitations = limitations
    }

    /// The findings of `severity`.
    public func findings(_ severity: Severity) -> [Finding] { findings.filter { $0.severity == severity } }
}

/// A hash that is the same in every process and on every machine, which Swift's `Hasher`
/// (seeded per process) is not: FNV-1a, 64 bits, over UTF-8.
enum StableHash {
    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }
}
