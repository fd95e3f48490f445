import Foundation
import OpenCombine

/// Runs throughput scenarios: every variant once per round, rounds interleaved so that the
/// machine's drift touches every variant alike, warm-up rounds discarded, medians reported.
struct ThroughputRunner {
    let repetitions: Int
    let warmups: Int
    let progress: (String) -> Void

    func run(_ scenario: ThroughputScenario) throws -> [Measurement] {
        var samples: [Variant: [Double]] = [:]
        var eventsPerOperation: [Variant: Double] = [:]
        var checksum: Int?
        for round in 0..<(warmups + repetitions) {
            for variant in scenario.variants {
                progress("\(scenario.id) \(variant.rawValue) round \(round + 1)/\(warmups + repetitions)")
                let run = try runOnce(scenario, variant, countingEvents: round == 0)
                if let checksum, checksum != run.checksum {
                    throw BenchmarkError.checksumMismatch(scenario: scenario.id, variant: variant.rawValue)
                }
                checksum = run.checksum
                if let events = run.events { eventsPerOperation[variant] = Double(events) / Double(scenario.operations) }
                if round >= warmups {
                    samples[variant, default: []].append(Double(run.nanoseconds) / Double(scenario.operations))
                }
            }
        }
        return scenario.variants.map { variant in
            let median = samples[variant]!.median
            var measurement = Measurement(
                scenario: scenario.id, variant: variant.rawValue, nsPerOp: median, unit: scenario.unit,
                repetitions: repetitions)
            if let events = eventsPerOperation[variant] {
                measurement.eventsPerOp = events
                if let untraced = samples[variant.untracedPeer]?.median { measurement.nsPerEvent = (median - untraced) / events }
            }
            return measurement
        }
    }

    private func runOnce(
        _ scenario: ThroughputScenario, _ variant: Variant, countingEvents: Bool
    ) throws -> (checksum: Int, nanoseconds: UInt64, events: Int?) {
        let operations = scenario.operations
        switch variant {
        case .untraced:
            let run = scenario.signalScope(operations)
            let (checksum, nanoseconds) = Stopwatch.time { measuredRegion(run) }
            return (checksum, nanoseconds, nil)
        case .openCombine:
            let run = scenario.openCombine(operations)
            let (checksum, nanoseconds) = Stopwatch.time { measuredRegion(run) }
            return (checksum, nanoseconds, nil)
        case .openCombineHook:
            let hook = EmptyIntrospection()
            hook.enable()
            defer { hook.disable() }
            let run = scenario.openCombine(operations)
            let (checksum, nanoseconds) = Stopwatch.time { measuredRegion(run) }
            return (checksum, nanoseconds, nil)
        case .hookOff:
            let file = TraceFile(label: scenario.id)
            defer { file.remove() }
            try file.start(values: false)
            let run = scenario.signalScope(operations)
            try file.stop()
            let (checksum, nanoseconds) = Stopwatch.time { measuredRegion(run) }
            return (checksum, nanoseconds, nil)
        case .traced, .tracedValues, .openCombineTraced:
            let file = TraceFile(label: scenario.id)
            defer { file.remove() }
            try file.start(values: variant == .tracedValues)
            let run = variant.isOpenCombine ? scenario.openCombine(operations) : scenario.signalScope(operations)
            let (checksum, nanoseconds) = Stopwatch.time { measuredRegion(run) }
            try file.stop()
            return (checksum, nanoseconds, countingEvents ? try file.eventCount() : nil)
        }
    }
}

/// OpenCombine's introspection hook, on and doing nothing (``Variant/openCombineHook``).
private final class EmptyIntrospection: _Introspection {}

/// Why the benchmark stopped.
enum BenchmarkError: Error, CustomStringConvertible {
    case checksumMismatch(scenario: String, variant: String)
    case childFailed(String)

    var description: String {
        switch self {
        case .checksumMismatch(let scenario, let variant):
            "\(scenario): the \(variant) run delivered different values from the others"
        case .childFailed(let reason):
            "analysis process failed: \(reason)"
        }
    }
}
