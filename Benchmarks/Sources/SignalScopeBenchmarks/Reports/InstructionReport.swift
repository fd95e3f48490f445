import Foundation

/// One row of the instruction-count mode: instructions per operation of a scenario run one
/// way, in one build. Instruction counts repeat from run to run whatever else the machine
/// does, which wall-clock medians on a shared machine do not.
struct InstructionMeasurement: Codable, Sendable {
    let scenario: String
    let variant: String
    /// `default` (a plain SwiftPM release build) or `cmo` (`-cross-module-optimization`).
    let build: String
    let unit: String
    /// Instructions executed in the measured region per operation.
    let instructionsPerOp: Double
    /// Traced variants: events recorded per operation.
    var eventsPerOp: Double?
    /// Traced variants: (traced − untraced) instructions per recorded event, against the
    /// same library untraced.
    var instructionsPerEvent: Double?
}

/// The instruction-count goals of docs/performance.md, checked against one run.
enum InstructionTargets {
    static let streaming = ["subject-map-filter", "fanout-100", "chain-12"]
    static let subscribing = ["churn", "switch-latest"]

    /// The builds measured, in the order they were.
    static func builds(of rows: [InstructionMeasurement]) -> [String] {
        rows.map(\.build).reduce(into: []) { builds, build in if !builds.contains(build) { builds.append(build) } }
    }

    static func evaluate(_ rows: [InstructionMeasurement], bytesPerNext: (record: Double, withBatches: Double)) -> [Target] {
        var targets: [Target] = []
        for build in builds(of: rows) {
            let inBuild = rows.filter { $0.build == build }
            let perEvent = streaming.compactMap { scenario in
                inBuild.first { $0.scenario == scenario && $0.variant == Variant.traced.rawValue }?.instructionsPerEvent
                    .map { (scenario, $0) }
            }
            targets += [
                Target("[\(build)] untraced ≤ 0.5× OpenCombine", inBuild.ratios(streaming + subscribing, .untraced, .openCombine)) { $0 <= 0.5 },
                Target("[\(build)] traced ≤ 1.3× untraced (streaming)", inBuild.ratios(streaming, .traced, .untraced)) { $0 <= 1.3 },
                Target("[\(build)] hook-off within 2% of untraced", inBuild.ratios(streaming, .hookOff, .untraced)) { $0 <= 1.02 },
                Target("[\(build)] ≤ 100 instructions more per recorded event than untraced", perEvent, suffix: " Ir") { $0 <= 100 },
                Target("[\(build)] a traced subscription ≤ 2× an untraced one", inBuild.ratios(subscribing, .traced, .untraced)) { $0 <= 2 },
                adapterShare(inBuild, build: build),
            ].compactMap { $0 }
        }
        targets.append(Target(
            name: "a next record of at most 16 bytes", met: bytesPerNext.record <= 16,
            measured: "\(Format.number(bytesPerNext.record)) bytes (\(String(format: "%.3f", bytesPerNext.withBatches)) with its share of the batch headers)"))
        return targets
    }
}

extension InstructionTargets {
    /// A value through traced OpenCombine code pays OpenCombine's hook (the taps it wraps
    /// subscribers in, its handler list under its lock) and then the adapter and the recorder:
    /// theirs is `opencombine-hook` less `opencombine`, ours `opencombine-traced` less
    /// `opencombine-hook`, both per recorded event. The goal (docs/performance.md, "The
    /// OpenCombine adapter"): ours at most theirs, so that tracing OpenCombine at most doubles
    /// what turning its own hook on costs.
    static func adapterShare(_ inBuild: [InstructionMeasurement], build: String) -> Target? {
        let shares = streaming.compactMap { scenario -> (scenario: String, ours: Double, theirs: Double)? in
            guard let plain = inBuild.figure(scenario, .openCombine), let hooked = inBuild.figure(scenario, .openCombineHook),
                let traced = inBuild.figure(scenario, .openCombineTraced),
                let events = inBuild.first(where: { $0.scenario == scenario && $0.variant == Variant.openCombineTraced.rawValue })?.eventsPerOp,
                events > 0
            else { return nil }
            return (scenario, (traced - hooked) / events, (hooked - plain) / events)
        }
        guard !shares.isEmpty else { return nil }
        return Target(
            name: "[\(build)] the OpenCombine adapter's instructions per recorded event ≤ OpenCombine's hook's",
            met: shares.allSatisfy { $0.ours <= $0.theirs },
            measured: shares.map { "\($0.scenario) \(Format.number($0.ours)) Ir (the hook's \(Format.number($0.theirs)))" }
                .joined(separator: ", "))
    }
}

/// The instruction-count results as a table, or as JSON in the shape of `make bench-json`.
enum InstructionReport {
    private struct Document: Encodable {
        let results: [InstructionMeasurement]
        let targets: [Target]
        let machine: Machine
    }

    static func json(_ rows: [InstructionMeasurement], targets: [Target], machine: Machine) throws -> String {
        try JSONReport.encoded(Document(results: rows, targets: targets, machine: machine))
    }

    static func table(_ rows: [InstructionMeasurement], targets: [Target], machine: Machine, scale: Double) -> String {
        var lines = [
            "SignalScope instruction counts (callgrind): \(machine.cpu), \(machine.system), \(machine.date)",
            "instructions per operation in the measured region, scale \(Format.number(scale)) (more where a scenario counts a floor of operations); they repeat from run to run",
            "",
        ]
        let widths = [20, 20, 2, 11, 14, 11, 10, 9]
        for build in InstructionTargets.builds(of: rows) {
            lines.append("build: \(build)")
            lines.append(TableReport.row(["scenario", "variant", "", "Ir/op", "× OpenCombine", "× untraced", "events/op", "Ir/event"], widths))
            var previous: String?
            let inBuild = rows.filter { $0.build == build }
            for row in inBuild {
                lines.append(TableReport.row([
                    row.scenario == previous ? "" : row.scenario, row.variant, "", Format.count(Int(row.instructionsPerOp.rounded())),
                    inBuild.ratioText(of: row, to: .openCombine),
                    Variant(rawValue: row.variant)?.isOpenCombine == true ? "" : inBuild.ratioText(of: row, to: .untraced),
                    row.eventsPerOp.map(Format.number) ?? "", row.instructionsPerEvent.map(Format.number) ?? "",
                ], widths))
                previous = row.scenario
            }
            lines.append("")
        }
        lines.append("goals")
        for target in targets {
            lines.append("  \(target.met ? "met   " : "MISSED") \(target.name): \(target.measured)")
        }
        return lines.joined(separator: "\n")
    }
}
