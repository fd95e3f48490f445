import SignalScope
import SignalScopeTracing
import Testing

/// What the body of a leak check can say besides running: which objects must be gone when
/// it returns, so that a test proves "this screen was freed" without weak-reference code.
///
/// ```swift
/// expectNoSignalLeaks { check in
///     let screen = ProfileScreen(model: model)
///     screen.dismiss()
///     check.mustBeFreed(screen, because: "ProfileScreen dismissed")
/// }
/// ```
public struct LeakCheck: Sendable {
    /// Says that `object` must have been freed when the body returns. If it is still alive
    /// then, the check fails with the chain of strong references that holds it, as the
    /// closing heap snapshot shows it: at the line where the fix goes when a leak rule
    /// explains what holds it (its finding starts with what this call declared), otherwise
    /// under `retained-after-release` at this line.
    public func mustBeFreed(
        _ object: AnyObject, because reason: String = "the leak check's body returned",
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) {
        Tracer.expectDeallocationWhenRecordingEnds(
            of: object, because: reason, site: SourceLocation(fileID: file, line: line, function: function))
    }
}

/// ``expectNoSignalLeaks(allowing:sourceLocation:_:)-(_,_,()->Void)`` whose body names the
/// objects that must be gone when it returns (``LeakCheck/mustBeFreed(_:because:file:line:function:)``).
public func expectNoSignalLeaks(
    allowing allowance: LeakAllowance = LeakAllowance(),
    sourceLocation: Testing.SourceLocation = #_sourceLocation,
    _ body: (LeakCheck) throws -> Void
) rethrows {
    try expectNoSignalLeaks(allowing: allowance, sourceLocation: sourceLocation) { try body(LeakCheck()) }
}

/// The `async` form, whose body names the objects that must be gone when it returns.
@_disfavoredOverload
public func expectNoSignalLeaks(
    allowing allowance: LeakAllowance = LeakAllowance(),
    sourceLocation: Testing.SourceLocation = #_sourceLocation,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (LeakCheck) async throws -> Void
) async rethrows {
    try await expectNoSignalLeaks(allowing: allowance, sourceLocation: sourceLocation, isolation: isolation) { try await body(LeakCheck()) }
}

/// XCTest's form, whose body names the objects that must be gone when it returns.
public func XCTAssertNoSignalLeaks(
    allowing allowance: LeakAllowance = LeakAllowance(),
    file: StaticString = #filePath, line: UInt = #line,
    _ body: (LeakCheck) throws -> Void
) rethrows {
    try XCTAssertNoSignalLeaks(allowing: allowance, file: file, line: line) { try body(LeakCheck()) }
}

/// XCTest's `async` form, whose body names the objects that must be gone when it returns.
@_disfavoredOverload
public func XCTAssertNoSignalLeaks(
    allowing allowance: LeakAllowance = LeakAllowance(),
    file: StaticString = #filePath, line: UInt = #line,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (LeakCheck) async throws -> Void
) async rethrows {
    try await XCTAssertNoSignalLeaks(allowing: allowance, file: file, line: line, isolation: isolation) { try await body(LeakCheck()) }
}
