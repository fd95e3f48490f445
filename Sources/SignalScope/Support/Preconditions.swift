/// The runtime's contract checks, in one place so that every message reads the same way:
/// what was wrong, the value received, and what is expected instead.
enum Require {
    static func nonNegative(
        _ value: Int, _ what: @autoclosure () -> String,
        file: StaticString = #file, line: UInt = #line
    ) {
        precondition(value >= 0, "SignalScope: \(what()) must not be negative (got \(value))", file: file, line: line)
    }

    static func nonNegative(
        _ value: Double, _ what: @autoclosure () -> String,
        file: StaticString = #file, line: UInt = #line
    ) {
        precondition(
            value >= 0 && !value.isNaN,
            "SignalScope: \(what()) must be a non-negative number of seconds (got \(value))",
            file: file, line: line)
    }

    static func positive(
        _ value: Double, _ what: @autoclosure () -> String,
        file: StaticString = #file, line: UInt = #line
    ) {
        precondition(
            value > 0 && value.isFinite,
            "SignalScope: \(what()) must be a positive, finite number of seconds (got \(value))",
            file: file, line: line)
    }

    static func unsupported(_ message: String, file: StaticString = #file, line: UInt = #line) -> Never {
        preconditionFailure("SignalScope: \(message)", file: file, line: line)
    }
}
