import Foundation
import SignalScopeAnalysis
import SignalScopeTracing
import Testing
import XCTest

/// What a growth check needs and judges: the repetitions it runs, each ended by a checkpoint
/// at the test's line, and the findings that show growth.
enum GrowthCheck {
    /// What every repetition's checkpoint is called.
    static let label = "repetition ended"

    /// Why `repetitions` cannot tell growth from a warm-up, if it cannot.
    static func refusal(_ repetitions: Int) -> String? {
        repetitions >= Checkpoint.seriesForGrowth ? nil
            : "a growth check needs at least \(Checkpoint.seriesForGrowth) repetitions to tell growth from a warm-up; it was given \(repetitions)"
    }

    /// Runs `body` `repetitions` times, marking a checkpoint after each.
    static func repeating(_ repetitions: Int, at site: TraceSite, _ body: () throws -> Void) rethrows {
        for _ in 0..<repetitions {
            try body()
            Tracer.checkpoint(label, at: site)
        }
    }

    /// The `async` ``repeating(_:at:_:)``.
    static func repeating(_ repetitions: Int, at site: TraceSite, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Void) async rethrows {
        for _ in 0..<repetitions {
            try await body()
            Tracer.checkpoint(label, at: site)
        }
    }

    /// The growth findings of a recording, and what kept the analysis from seeing
    /// everything.
    static func failures(of trace: Trace) -> LeakCheckFailures {
        let report = trace.analyze()
        return LeakCheckFailures(findings: report.findings.filter(\.showsGrowth), limitations: report.limitations, analysis: report)
    }
}

/// Runs `body` `repetitions` times (5 by default) in one recording, with a heap snapshot after
/// each, and records a test issue for everything that grows with every repetition after the
/// first and is still alive at the end: the program's objects of one type, subscriptions
/// made at one line or signals made at one line (`grows-per-repetition`, or the leak rule
/// that explains it), with how many there were after each repetition and the chain of strong
/// references that holds the newest, at the line where the fix goes.
///
/// ```swift
/// @Test func profileDoesNotPileUp() {
///     expectNoSignalGrowth {
///         let screen = ProfileScreen(session: session)
///         screen.close()
///     }
/// }
/// ```
///
/// The first repetition is a warm-up: what it fills once (a cache, a formatter) is not
/// growth, and neither is a pool that stops at its bound. Only growth fails the check; other
/// leaks are ``expectNoSignalLeaks(allowing:sourceLocation:_:)-(_,_,()->Void)``'s to judge.
/// What is judged is what `body` made, as for that check. An analysis that could not see the
/// whole heap fails it as well. Fewer than 3 repetitions cannot tell growth from a warm-up:
/// the check records that as its issue and does not run `body`.
public func expectNoSignalGrowth(
    repeating repetitions: Int = 5,
    sourceLocation: Testing.SourceLocation = #_sourceLocation,
    _ body: () throws -> Void
) rethrows {
    _ = TestingModule.declared
    if let refusal = GrowthCheck.refusal(repetitions) {
        Issue.record(Comment(rawValue: refusal), sourceLocation: sourceLocation)
        return
    }
    let site = TraceSite(file: sourceLocation.fileID, line: sourceLocation.line, function: Test.current?.name ?? "expectNoSignalGrowth")
    let recorded = try Tracer.recordKeepingLog { try GrowthCheck.repeating(repetitions, at: site, body) }
    recordIssues(GrowthCheck.failures(of: recorded.trace), recorded, at: sourceLocation)
}

/// The `async` form of ``expectNoSignalGrowth(repeating:sourceLocation:_:)-(_,_,()->Void)``.
@_disfavoredOverload
public func expectNoSignalGrowth(
    repeating repetitions: Int = 5,
    sourceLocation: Testing.SourceLocation = #_sourceLocation,
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> Void
) async rethrows {
    _ = TestingModule.declared
    if let refusal = GrowthCheck.refusal(repetitions) {
        Issue.record(Comment(rawValue: refusal), sourceLocation: sourceLocation)
        return
    }
    let site = TraceSite(file: sourceLocation.fileID, line: sourceLocation.line, function: Test.current?.name ?? "expectNoSignalGrowth")
    let recorded = try await Tracer.recordKeepingLog { try await GrowthCheck.repeating(repetitions, at: site, body) }
    recordIssues(GrowthCheck.failures(of: recorded.trace), recorded, at: sourceLocation)
}

/// XCTest's form of ``expectNoSignalGrowth(repeating:sourceLocation:_:)-(_,_,()->Void)``:
/// fails the test at the assertion with every growth finding, each message starting with the
/// path and line where the fix goes.
public func XCTAssertNoSignalGrowth(
    repeating repetitions: Int = 5,
    file: StaticString = #filePath, line: UInt = #line,
    _ body: () throws -> Void
) rethrows {
    _ = TestingModule.declared
    if let refusal = GrowthCheck.refusal(repetitions) { return XCTFail(refusal, file: file, line: line) }
    let site = TraceSite(file: ("\(file)" as NSString).lastPathComponent, line: Int(line), function: "XCTAssertNoSignalGrowth")
    let recorded = try Tracer.recordKeepingLog { try GrowthCheck.repeating(repetitions, at: site, body) }
    xctFail(GrowthCheck.failures(of: recorded.trace), recorded, file: file, line: line)
}

/// The `async` form of ``XCTAssertNoSignalGrowth(repeating:file:line:_:)-(_,_,_,()->Void)``.
@_disfavoredOverload
public func XCTAssertNoSignalGrowth(
    repeating repetitions: Int = 5,
    file: StaticString = #filePath, line: UInt = #line,
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> Void
) async rethrows {
    _ = TestingModule.declared
    if let refusal = GrowthCheck.refusal(repetitions) { return XCTFail(refusal, file: file, line: line) }
    let site = TraceSite(file: ("\(file)" as NSString).lastPathComponent, line: Int(line), function: "XCTAssertNoSignalGrowth")
    let recorded = try await Tracer.recordKeepingLog { try await GrowthCheck.repeating(repetitions, at: site, body) }
    xctFail(GrowthCheck.failures(of: recorded.trace), recorded, file: file, line: line)
}
