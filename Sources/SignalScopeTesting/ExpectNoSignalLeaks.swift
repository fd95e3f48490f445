import SignalScope
import SignalScopeAnalysis
import SignalScopeTracing
import Testing
import XCTest

/// What a leak check lets through.
public struct LeakAllowance: Sendable {
    /// Findings of these rules do not fail the check.
    public var rules: Set<RuleID>
    /// Findings about objects of these types (by name, `SearchViewModel`, or qualified) do
    /// not fail the check: objects the test means to outlive the scope.
    public var outliving: Set<String>

    /// Allows findings of `rules`, and objects of the types named in `outliving` to outlive the checked code.
    public init(rules: Set<RuleID> = [], outliving: Set<String> = []) {
        self.rules = rules
        self.outliving = outliving
    }

    /// The findings of `body`'s recording that are not allowed, and what kept the analysis
    /// from seeing everything (which fails the check too: it could not prove the absence
    /// of leaks).
    func failures(of trace: Trace) -> (findings: [Finding], limitations: [String]) {
        let report = trace.analyze()
        let findings = report.findings.filter { finding in
            guard !rules.contains(finding.rule) else { return false }
            let objects = finding.entities.compactMap { entity -> String? in
                guard case .object(let id) = entity, let name = trace.objects[id]?.typeName else { return nil }
                return name
            }
            let allowed = objects.contains { name in
                outliving.contains(name) || outliving.contains(String(name.split(separator: ".").last ?? ""))
            }
            return !allowed
        }
        return (findings, report.limitations)
    }
}

/// Runs `body` while recording what signals do, then analyses the recording and records a
/// test issue for every leak finding, at the finding's own source line, with its path and
/// hint.
///
/// ```swift
/// @Test func searchScreenDoesNotLeak() throws {
///     try expectNoSignalLeaks {
///         let model = SearchViewModel()
///         model.query.value = "swift"
///     }
/// }
/// ```
///
/// Only what `body` creates on the calling thread is judged, so tests running alongside do
/// not interfere. Warnings fail the check too; allow rules or outliving objects with
/// `allowing`.
public func expectNoSignalLeaks(
    allowing allowance: LeakAllowance = LeakAllowance(),
    sourceLocation: Testing.SourceLocation = #_sourceLocation,
    _ body: () throws -> Void
) rethrows {
    let recording = try Tracer.recordOnCallingThread(body)
    let failures = allowance.failures(of: recording.callingThread)
    for finding in failures.findings {
        let location = Testing.SourceLocation(
            fileID: finding.location.file, filePath: finding.location.file, line: max(1, finding.location.line),
            column: 1)
        Issue.record(Comment(rawValue: "signal leak: \(finding)"), sourceLocation: finding.location.line > 0 ? location : sourceLocation)
    }
    for limitation in failures.limitations {
        Issue.record(Comment(rawValue: "signal leak check incomplete: \(limitation)"), sourceLocation: sourceLocation)
    }
}

/// XCTest's form of ``expectNoSignalLeaks(allowing:sourceLocation:_:)``: fails the test
/// with every leak finding (each message names the finding's source line).
public func XCTAssertNoSignalLeaks(
    allowing allowance: LeakAllowance = LeakAllowance(),
    file: StaticString = #filePath, line: UInt = #line,
    _ body: () throws -> Void
) rethrows {
    let recording = try Tracer.recordOnCallingThread(body)
    let failures = allowance.failures(of: recording.callingThread)
    for finding in failures.findings {
        XCTFail("signal leak: \(finding)", file: file, line: line)
    }
    for limitation in failures.limitations {
        XCTFail("signal leak check incomplete: \(limitation)", file: file, line: line)
    }
}
