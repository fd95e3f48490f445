import Foundation

/// Monotonic wall-clock time in nanoseconds.
enum Stopwatch {
    static func nanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Runs `body` and returns what it returned and how long it took.
    static func time<Result>(_ body: () throws -> Result) rethrows -> (result: Result, nanoseconds: UInt64) {
        let start = nanoseconds()
        let result = try body()
        return (result, nanoseconds() - start)
    }
}

extension Array where Element == Double {
    /// The middle value (the mean of the two middle ones for an even count).
    var median: Double {
        precondition(!isEmpty, "median of no measurements")
        let sorted = self.sorted()
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }
}
