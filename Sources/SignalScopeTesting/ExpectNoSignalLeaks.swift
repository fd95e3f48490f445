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
    func failures(of trace: Trace) -> (findings: [Finding], limitations: [String]) {
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
        return (findings, report.limitations)
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
    recordIssues(allowance.failures(of: try Tracer.record(body)), at: sourceLocation)
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
    let trace = try await Tracer.record(body)
    recordIssues(allowance.failures(of: trace), at: sourceLocation)
}

private func recordIssues(_ failures: (findings: [Finding], limitations: [String]), at sourceLocation: Testing.SourceLocation) {
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
    xctFail(allowance.failures(of: try Tracer.record(body)), file: file, line: line)
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
    let trace = try await Tracer.record(body)
    xctFail(allowance.failures(of: trace), file: file, line: line)
}

private func xctFail(_ failures: (findings: [Finding], limitations: [String]), file: StaticString, line: UInt) {
    let resolver = SourceResolver(packageOf: "\(file)")
    for finding in failures.findings {
        let path = resolver?.absolutePath(for: finding.location.file) ?? finding.location.file
        XCTFail("signal leak at \(path):\(finding.location.line): \(finding)", file: file, line: line)
    }
    for limitation in failures.limitations {
        XCTFail("signal leak check incomplete: \(limitation)", file: file, line: line)
    }
}
