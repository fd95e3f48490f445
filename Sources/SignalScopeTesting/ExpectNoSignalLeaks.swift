import Foundation
import SignalScope
import SignalScopeAnalysis
import SignalScopeTracing
import Testing
import XCTest

/// What a leak check lets through.
public struct LeakAllowance: Sendable {
    /// Findings of these rules do not fail the check, unless the body said an object of
    /// theirs must be freed (``LeakCheck/mustBeFreed(_:because:file:line:function:)``).
    public var rules: Set<RuleID>
    /// Findings about objects of these types (by name, `SearchViewModel`, or qualified) do
    /// not fail the check: objects the test means to outlive the scope (but not one the body
    /// said must be freed).
    public var outliving: Set<String>

    /// Allows findings of `rules`, and objects of the types named in `outliving` to outlive the checked code.
    public init(rules: Set<RuleID> = [], outliving: Set<String> = []) {
        self.rules = rules
        self.outliving = outliving
    }

    /// The findings of `body`'s recording that are not allowed, and what kept the analysis
    /// from seeing everything (which fails the check too: it could not prove the absence
    /// of leaks).
    func failures(of trace: Trace) -> LeakCheckFailures {
        let report = trace.analyze()
        let findings = report.findings.filter { finding in
            // What the test said must be freed fails whatever is allowed.
            guard !finding.contradictsDeclaration else { return true }
            guard !rules.contains(finding.rule) else { return false }
            let objects = finding.entities.compactMap { entity -> String? in
                guard case .object(let id) = entity,
                    let name = trace.heap.objects[id]?.typeName ?? trace.objects[id]?.typeName
                else { return nil }
                return name
            }
            let allowed = objects.contains { name in
                outliving.contains(name) || outliving.contains(String(name.split(separator: ".").last ?? ""))
            }
            return !allowed
        }
        return LeakCheckFailures(findings: findings, limitations: report.limitations, analysis: report)
    }
}

/// What fails a leak check: the findings not allowed, and what kept the analysis from
/// seeing everything; with the analysis, for the report its evidence keeps.
struct LeakCheckFailures {
    let findings: [Finding]
    let limitations: [String]
    let analysis: AnalysisReport

    var isEmpty: Bool { findings.isEmpty && limitations.isEmpty }

    /// When the check fails and `SIGNALSCOPE_ARTIFACTS` names a folder, keeps the trace and
    /// its report there, named after `test` (``LeakEvidence``); the line that names them.
    func evidence(_ recorded: (trace: Trace, log: [UInt8]), test: String) -> String? {
        isEmpty ? nil : LeakEvidence.keep(trace: recorded.trace, log: recorded.log, analysis: analysis, test: test)
    }
}

/// Runs `body` while recording what it does with signals, then analyses the recording and
/// records a test issue for every leak finding, at the finding's own source file and line,
/// with its path and hint.
///
/// ```swift
/// @Test func searchScreenDoesNotLeak() {
///     expectNoSignalLeaks {
///         let model = SearchViewModel()
///         model.query.value = "swift"
///     }
/// }
/// ```
///
/// `try` is needed only when `body` throws (the function rethrows). What is judged is what
/// `body` made (see ``Tracer/record(values:heapLimits:_:)``): the signals, subscriptions,
/// commands and objects its own thread made, what its events led to on other threads
/// through SignalScope's schedulers, and everything those keep alive. Tests running
/// alongside, in parallel, are not judged here and cannot fail it. Warnings fail the check
/// too; allow rules or outliving objects with `allowing`. An analysis that could not see
/// the whole heap fails it as well: it proves nothing.
public func expectNoSignalLeaks(
    allowing allowance: LeakAllowance = LeakAllowance(),
    sourceLocation: Testing.SourceLocation = #_sourceLocation,
    _ body: () throws -> Void
) rethrows {
    _ = TestingModule.declared
    let recorded = try Tracer.recordKeepingLog(body)
    recordIssues(allowance.failures(of: recorded.trace), recorded, at: sourceLocation)
}

/// The `async` form of ``expectNoSignalLeaks(allowing:sourceLocation:_:)``: what the body's
/// task does, on whatever threads it resumes, and what the tasks it starts make, is judged
/// the same way. Disfavoured, so that a closure with no `await` in an `async` test takes the
/// synchronous form and needs no `await`.
@_disfavoredOverload
public func expectNoSignalLeaks(
    allowing allowance: LeakAllowance = LeakAllowance(),
    sourceLocation: Testing.SourceLocation = #_sourceLocation,
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> Void
) async rethrows {
    _ = TestingModule.declared
    let recorded = try await Tracer.recordKeepingLog(body)
    recordIssues(allowance.failures(of: recorded.trace), recorded, at: sourceLocation)
}

func recordIssues(
    _ failures: LeakCheckFailures, _ recorded: (trace: Trace, log: [UInt8]), at sourceLocation: Testing.SourceLocation
) {
    // Named after the test's file and function (its line when no test is running).
    let file = (sourceLocation.fileName as NSString).deletingPathExtension
    if let evidence = failures.evidence(recorded, test: "\(file)-\(Test.current?.name ?? "line\(sourceLocation.line)")") {
        Issue.record(Comment(rawValue: evidence), sourceLocation: sourceLocation)
    }
    let resolver = SourceResolver(packageOf: sourceLocation.filePath)
    for finding in failures.findings {
        let location = finding.location.line > 0
            ? Testing.SourceLocation(
                fileID: finding.location.file,
                filePath: resolver?.absolutePath(for: finding.location.file) ?? finding.location.file,
                line: finding.location.line, column: 1)
            : sourceLocation
        Issue.record(Comment(rawValue: "signal leak: \(finding)"), sourceLocation: location)
    }
    for limitation in failures.limitations {
        Issue.record(Comment(rawValue: "signal leak check incomplete: \(limitation)"), sourceLocation: sourceLocation)
    }
}

/// XCTest's form of ``expectNoSignalLeaks(allowing:sourceLocation:_:)``: fails the test
/// at the assertion with every leak finding, each message starting with the path and line
/// of the leak (XCTest on Linux records failures at the assertion only).
public func XCTAssertNoSignalLeaks(
    allowing allowance: LeakAllowance = LeakAllowance(),
    file: StaticString = #filePath, line: UInt = #line,
    _ body: () throws -> Void
) rethrows {
    _ = TestingModule.declared
    let recorded = try Tracer.recordKeepingLog(body)
    xctFail(allowance.failures(of: recorded.trace), recorded, file: file, line: line)
}

/// The `async` form of ``XCTAssertNoSignalLeaks(allowing:file:line:_:)``.
@_disfavoredOverload
public func XCTAssertNoSignalLeaks(
    allowing allowance: LeakAllowance = LeakAllowance(),
    file: StaticString = #filePath, line: UInt = #line,
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> Void
) async rethrows {
    _ = TestingModule.declared
    let recorded = try await Tracer.recordKeepingLog(body)
    xctFail(allowance.failures(of: recorded.trace), recorded, file: file, line: line)
}

func xctFail(_ failures: LeakCheckFailures, _ recorded: (trace: Trace, log: [UInt8]), file: StaticString, line: UInt) {
    // Named after the test's file and the assertion's line: XCTest on Linux does not say
    // which test is running.
    let name = ("\(file)" as NSString).lastPathComponent
    if let evidence = failures.evidence(recorded, test: "\((name as NSString).deletingPathExtension)-line\(line)") {
        XCTFail(evidence, file: file, line: line)
    }
    let resolver = SourceResolver(packageOf: "\(file)")
    for finding in failures.findings {
        let path = resolver?.absolutePath(for: finding.location.file) ?? finding.location.file
        XCTFail("signal leak at \(path):\(finding.location.line): \(finding)", file: file, line: line)
    }
    for limitation in failures.limitations {
        XCTFail("signal leak check incomplete: \(limitation)", file: file, line: line)
    }
}
