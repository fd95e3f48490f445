import SignalScopeTracing

/// One rule: reads the model of what was alive at the end of a trace, reports findings,
/// and claims what it explained so that later rules do not report it again.
protocol Analyzer: Sendable {
    static var rule: RuleID { get }
    /// The severity of the rule's findings.
    static var severity: Severity { get }
    /// What the rule finds, in one sentence: `signalscope rules`, `check --help` and SARIF
    /// show it.
    static var summary: String { get }
    /// What the rule needs gathered while a log is read, beyond the trace's own fold (the
    /// order of events: cold runs, failures as they were then); each a ``TraceFact`` of a
    /// file of its own under `Facts/`.
    static var facts: [any TraceFact.Type] { get }
    func analyze(_ model: inout LeakModel) -> [Finding]
}

extension Analyzer {
    static var facts: [any TraceFact.Type] { [] }
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
        GrowsPerRepetition(),
        RetainedAfterRelease(),
    ]
}

/// Registers every rule's facts (``Analyzer/facts``) with the tracer, so that each trace read
/// in the process gathers them in its one read. Swift has no load-time initializers: the
/// analysis module's C constructor (CSignalScopeAnalysisBootstrap) calls this when the program
/// loads, before anything can read a trace.
@_cdecl("signalscope_analysis_gather_facts")
public func signalscopeAnalysisGatherFacts() {
    for analyzer in Analyzers.standard {
        for fact in type(of: analyzer).facts { TraceFacts.gather(fact) }
    }
}

extension RuleID {
    /// What the rule finds, in one sentence.
    public var summary: String { Analyzers.analyzer(for: self).summary }
    /// The severity of the rule's findings.
    public var severity: Severity { Analyzers.analyzer(for: self).severity }
}

extension Analyzers {
    static func analyzer(for rule: RuleID) -> any Analyzer.Type {
        // Every rule has its analyzer: the registry test checks that standard covers RuleID.
        type(of: standard.first { type(of: $0).rule == rule }!)
    }
}

extension Trace {
    /// Runs the analyzers of `rules` (every rule by default) over the trace (see
    /// `docs/analyzers.md`). Findings judge liveness by the trace's closing snapshot: a cycle
    /// a terminal event broke is not a finding.
    ///
    /// Choosing rules changes who reports a leak, never whether it is reported: a rule that
    /// does not run claims nothing, so what it would have explained is left to the next rule
    /// that runs and can (a garbage cycle is always a `retain-cycle`, an object only live
    /// signals hold a `kept-alive-by-signal`); only what no chosen rule can report goes
    /// unreported.
    public func analyze(rules: Set<RuleID> = Set(RuleID.allCases)) -> AnalysisReport {
        var model = LeakModel(self)
        var findings: [Finding] = []
        var unjudged: [String] = []
        for analyzer in Analyzers.standard where rules.contains(type(of: analyzer).rule) {
            guard type(of: analyzer).facts.allSatisfy(gathered) else {
                unjudged.append("the trace was read without what \(type(of: analyzer).rule) follows while a log is read (it was read before the analysis module registered it), so that rule could not judge it")
                continue
            }
            findings += analyzer.analyze(&model)
        }
        return AnalysisReport(
            findings: AnalysisReport.grouped(Finding.folded(findings)), limitations: analysisLimitations + unjudged + model.unproven)
    }

    /// Why an analysis of this trace cannot see everything, in words (empty when it can):
    /// what ``analyze()`` reports as ``AnalysisReport/limitations``, known without analysing,
    /// so that a command that draws or counts can say it too.
    public var analysisLimitations: [String] {
        var limitations = heap.limitations
        if heap.hasSnapshot && !hasEnd {
            limitations.append("the recording was cut off during its closing heap snapshot: objects and references it did not write count as held from outside, so leaks through them are not reported")
        }
        if extendedEvents.contains(where: { record in
            if case .extended(let event) = record.event { (event.payload as? Checkpoint)?.sawPartOfTheHeap == true } else { false }
        }) {
            limitations.append("a checkpoint's heap snapshot did not see the whole heap (it stopped at its budget, could not read memory or could not be taken): what grows between checkpoints may be missing")
        }
        if skippedRecords {
            limitations.append("part of the trace could not be read (damaged or malformed records were skipped, see the warnings): what they said is missing, so findings may be missing or wrong")
        }
        return limitations
    }
}

extension TraceHeap {
    /// What kept the closing heap walk from seeing everything, in words.
    var limitations: [String] {
        guard let limits else {
            return ["the trace has no closing heap snapshot (the process was killed or crashed before recording stopped): leaks were not looked for"]
        }
        if memoryUnreadable {
            return ["the process could not read its own memory through the kernel (a sandbox denies process_vm_readv): no heap was walked, so leaks were not looked for"]
        }
        if let unwalkedReason {
            return ["no consistent heap snapshot could be taken (\(unwalkedReason)): no heap was walked, so leaks were not looked for"]
        }
        var limitations: [String] = []
        if !coversAllocations {
            limitations.append("the recording could not keep a table of the objects allocated while it ran (another instrument uses the Swift runtime's allocation hooks): garbage that no signal or subscription reaches was not looked for")
        }
        if objectLimitReached {
            limitations.append("the heap walk stopped at its budget of \(limits.objects) objects: what it did not explore counts as held from outside, so leaks through it are not reported (raise the budget with SIGNALSCOPE_HEAP_OBJECTS)")
        }
        if depthLimitReached {
            limitations.append("the heap walk stopped at its depth budget of \(limits.depth) references: what lies deeper counts as held from outside, so leaks through it are not reported (raise the budget with SIGNALSCOPE_HEAP_DEPTH)")
        }
        return limitations
    }
}

extension AnalysisReport {
    /// The findings of several traces as one report, for a command whose processes each
    /// wrote a trace (`swift test` runs its test binary more than once): the same problem at
    /// the same place in several of them is one finding whose count adds theirs.
    public init(merging reports: [AnalysisReport]) {
        var seen: Set<String> = []
        self.init(
            findings: Self.grouped(reports.flatMap(\.findings)),
            limitations: reports.flatMap(\.limitations).filter { seen.insert($0).inserted })
    }

    /// Findings with one fingerprint (the same problem about the same thing in the same
    /// function) at the same line are one finding with a count: a loop that leaks on every
    /// pass is one problem. The same fingerprint at other lines stays apart, since each line
    /// is a fix of its own. Errors come first.
    static func grouped(_ findings: [Finding]) -> [Finding] {
        struct Place: Hashable {
            let fingerprint: String
            let line: Int
        }
        var groups: [Finding] = []
        var indexByPlace: [Place: Int] = [:]
        for finding in findings {
            let place = Place(fingerprint: finding.fingerprint, line: finding.location.line)
            if let index = indexByPlace[place] {
                groups[index].count += finding.count
                groups[index].entities += finding.entities
                groups[index].explained.formUnion(finding.explained)
                // An occurrence the program declared should have been freed makes the group an
                // error that no allowance excuses, and its path starts with the declaration.
                groups[index].severity = min(groups[index].severity, finding.severity)
                groups[index].showsGrowth = groups[index].showsGrowth || finding.showsGrowth
                if finding.contradictsDeclaration && !groups[index].contradictsDeclaration, let declaration = finding.steps.first {
                    groups[index].contradictsDeclaration = true
                    groups[index].steps.insert(declaration, at: 0)
                }
            } else {
                indexByPlace[place] = groups.count
                groups.append(finding)
            }
        }
        return groups.enumerated().sorted { lhs, rhs in
            (lhs.element.severity, lhs.offset) < (rhs.element.severity, rhs.offset)
        }.map(\.element)
    }
}
