import ArgumentParser
import Foundation
import SignalScopeTools

/// `signalscope check`: analyses a trace (or runs a command traced and analyses its trace)
/// and fails the run on findings.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Find leaks in a trace, or in a command run with tracing on.",
        discussion: """
            signalscope check [options] <trace>
            signalscope check [options] -- <command> [args...]

            Exits 0 when no finding fails; 1 on a usage or I/O error; 2 when a finding fails; \
            3 when none does but the analysis could not see the whole heap (no closing \
            snapshot, unreadable memory, a heap walk out of budget); 4 when none does but the \
            wrapped command exited non-zero (its status is printed on standard error), unless \
            --ignore-exit-code.

            A wrapped command's standard output goes to standard error, so that standard \
            output carries the report alone (`check --format json -- swift test | jq` works).

            Rules: \(RuleID.allCases.map(\.rawValue).joined(separator: ", ")) \
            (`signalscope rules` describes each).
            """
    )

    @Option(
        name: .customLong("format"),
        help: ArgumentHelp(
            "A report format, optionally written to a file: text|json|junit|sarif|github|html[=path]. Repeatable. html is the interactive report of the trace with the most findings.",
            valueName: "format[=path]"),
        completion: .list(FindingsFormats.all.map(\.name)))
    var formats: [String] = []

    @Option(help: "The lowest severity that fails the check.")
    var failOn: FailureThreshold = .error

    @Option(help: "Colour the text report: auto (a terminal, unless NO_COLOR is set or TERM=dumb), always or never.")
    var color: ColorChoice = .auto

    @Option(help: "Findings listed in this file, up to the number of each it holds, are reported as baseline, not failures.")
    var baseline: String?

    @Flag(help: "Tighten the --baseline file: lower each count to what was found and drop what is gone (it never accepts more).")
    var updateBaseline = false

    @Option(help: "Write the current findings to this file as a baseline.")
    var writeBaseline: String?

    @Option(help: ArgumentHelp("Only these rules (comma-separated).", valueName: "rules"), completion: .list(RuleID.allCases.map(\.rawValue)))
    var rules: String?

    @Option(help: ArgumentHelp("Skip these rules (comma-separated).", valueName: "rules"), completion: .list(RuleID.allCases.map(\.rawValue)))
    var disableRules: String?

    @Option(help: "When wrapping a command, keep its traces (one per traced process) in this folder.")
    var keepTraces: String?

    @Option(help: ArgumentHelp("When the check fails, keep its traces and the report page in this folder (for CI to upload).", valueName: "folder"))
    var artifacts: String?

    @Flag(help: "When wrapping a command, do not fail (exit 4) when it exits non-zero.")
    var ignoreExitCode = false

    @Flag(help: "Pass even when the analysis could not see the whole heap (it still says so).")
    var allowIncomplete = false

    @Argument(help: "A trace file to analyse.")
    var trace: String?

    @Argument(parsing: .postTerminator, help: "The command to run traced, after --.")
    var command: [String] = []

    @OptionGroup var force: ForceOption

    func run() throws {
        let destinations = try (formats.isEmpty ? ["text"] : formats).map(ReportDestination.init(parsing:))
        let selected = try RuleSelection(only: rules, disabled: disableRules)
        if updateBaseline && baseline == nil { throw CLIError("--update-baseline tightens the file --baseline names: give --baseline <file>") }
        let accepted = try baseline.map(Baseline.read(from:))

        var commandStatus: Int32 = 0
        var temporaryFolder: String?
        defer { if let temporaryFolder { TracedRun.removeTemporaryFolder(temporaryFolder) } }
        let tracePaths: [String]
        switch (trace, command.isEmpty) {
        case (nil, true): throw CLIError("give a trace file, or a command after -- to run traced")
        case (.some, false): throw CLIError("give either a trace file or a command after --, not both")
        case (.some(let path), true): tracePaths = [path]
        case (nil, false):
            let folder = try traceFolder()
            if keepTraces == nil { temporaryFolder = folder }
            var run = TracedRun(
                command: command, tracePath: "\(folder)/trace-%p.sslog", values: false,
                announceHint: "signalscope check reports it when the command ends")
            run.outputToStandardError = true
            commandStatus = try run.run()
            if commandStatus != 0 {
                standardError("signalscope: the checked command \(command[0]) exited with status \(commandStatus)")
            }
            tracePaths = TracedRun.tracesWritten(in: folder)
            guard !tracePaths.isEmpty else { throw run.wroteNoTrace(status: commandStatus, ignoringStatus: ignoreExitCode) }
        }

        // One analysis, with the chosen rules, that every format reports.
        var reports: [AnalysisReport] = []
        var warnings: [String] = []
        let inputs = try tracePaths.map(TraceInput.init)
        for input in inputs {
            let loaded = try TraceLoading.load(input, detail: .liveEntities, reportsLimitations: false)
            reports.append(loaded.analyze(rules: selected.rules))
            warnings += loaded.warnings
        }
        let merged = AnalysisReport(merging: reports)
        let findings = merged.findings
        let judgement = accepted?.judge(findings)
        for note in judgement?.notes ?? [] { standardError("signalscope: \(note)") }
        let report = CheckReport(
            findings: findings, threshold: failOn, baseline: judgement?.accepted ?? [], traceWarnings: warnings,
            limitations: merged.limitations, allowingIncomplete: allowIncomplete)

        var page: String?
        func htmlPage() throws -> String {
            if let page { return page }
            page = try Self.reportPage(inputs, reports, baseline: Set(report.entries.filter(\.isBaseline).map(\.finding.fingerprint)))
            return page!
        }
        for destination in destinations {
            if let path = destination.path {
                let text = try destination.format.render(report, FindingsFormatOptions(page: htmlPage))
                try writeOutput(Data(text.utf8), to: path, force: force.isOn)
            } else {
                let colored = destination.format.usesColor && color.colors(STDOUT_FILENO)
                standardOutput(try destination.format.render(report, FindingsFormatOptions(colored: colored, page: htmlPage)), terminator: "")
            }
        }
        if let writeBaseline {
            try Baseline(findings: findings).write(to: writeBaseline, force: force.isOn)
            standardError("signalscope: wrote \(findings.count) findings to baseline \(writeBaseline)")
        }
        if updateBaseline, let baseline, let tightened = judgement?.tightened {
            try tightened.write(to: baseline, force: true)
            standardError("signalscope: tightened baseline \(baseline)")
        }
        let failure: Int32? =
            if !report.failing.isEmpty { ExitStatus.failingFindings }
            else if commandStatus != 0 && !ignoreExitCode { ExitStatus.commandFailed }
            else if report.isIncompleteFailing { ExitStatus.incomplete }
            else { nil }
        guard let failure else { return }
        if let artifacts {
            // Evidence that cannot be kept is said; the check's own outcome stands.
            do {
                let kept = try Evidence(folder: artifacts, trace: trace, command: command).keep(page: htmlPage(), traces: inputs)
                standardError("signalscope: the failing check's report is \(kept[0]), its trace\(kept.count > 2 ? "s" : "") \(kept.dropFirst().joined(separator: ", "))")
            } catch {
                standardError("signalscope: warning: the failing check's evidence could not be kept in \(artifacts): \(reason(error))")
            }
        }
        throw ExitCode(failure)
    }

    /// The interactive report of the trace with the most findings (the first on a tie), read
    /// again with every record for its pictures, and showing the findings the check's one
    /// analysis made of it, with the baseline's marks; a note names it when there were several.
    private static func reportPage(_ inputs: [TraceInput], _ reports: [AnalysisReport], baseline: Set<String>) throws -> String {
        let counts = reports.map(\.findings.count)
        let chosen = counts.indices.max { counts[$0] < counts[$1] || (counts[$0] == counts[$1] && $0 > $1) } ?? 0
        if inputs.count > 1 {
            standardError("signalscope: the html report shows \(inputs[chosen].name), the trace with the most findings of the \(inputs.count) written")
        }
        let trace = try TraceLoading.load(inputs[chosen], reportsLimitations: false)
        return ReportPageMaking.page(
            trace: trace, analysis: reports[chosen], title: (inputs[chosen].name as NSString).lastPathComponent, editor: nil,
            baseline: baseline)
    }

    /// Where the wrapped command's processes write their traces: `--keep-traces`, or a
    /// temporary folder removed afterwards.
    private func traceFolder() throws -> String {
        guard let keepTraces else { return try TracedRun.temporaryFolder() }
        do {
            try FileManager.default.createDirectory(atPath: keepTraces, withIntermediateDirectories: true)
        } catch {
            throw CLIError("cannot create trace folder \(keepTraces): \(reason(error))")
        }
        for stale in TracedRun.tracesWritten(in: keepTraces) { try? FileManager.default.removeItem(atPath: stale) }
        return keepTraces
    }
}

/// `--rules` and `--disable-rules`, checked against the rules that exist.
struct RuleSelection {
    private let only: Set<RuleID>?
    private let disabled: Set<RuleID>

    init(only: String?, disabled: String?) throws {
        self.only = try only.map(Self.parse)
        self.disabled = try disabled.map(Self.parse) ?? []
    }

    /// The rules that run.
    var rules: Set<RuleID> { Set(RuleID.allCases.filter { (only?.contains($0) ?? true) && !disabled.contains($0) }) }

    private static func parse(_ list: String) throws -> Set<RuleID> {
        Set(try list.split(separator: ",").map { name in
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            guard let rule = RuleID(rawValue: trimmed) else {
                throw CLIError("unknown rule '\(trimmed)' (rules: \(RuleID.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            return rule
        })
    }
}
