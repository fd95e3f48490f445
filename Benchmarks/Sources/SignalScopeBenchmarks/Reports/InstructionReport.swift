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
    /// Traced variants: (traced − untraced) instructions per recorded event.
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

    static func evaluate(_ rows: [InstructionMeasurement], bytesPerNext: Double) -> [Target] {
        var targets: [Target] = []
        for build in builds(of: rows) {
            let inBuild = rows.filter { $0.build == build }
            func count(_ scenario: String, _ variant: Variant) -> Double? {
                inBuild.first { $0.scenario == scenario && $0.variant == variant.rawValue }?.instructionsPerOp
            }
            func ratios(_ scenarios: [String], _ top: Variant, _ bottom: Variant) -> [(String, Double)] {
                scenarios.compactMap { scenario in
                    guard let numerator = count(scenario, top), let denominator = count(scenario, bottom) else { return nil }
                    return (scenario, numerator / denominator)
                }
            }
            func target(_ name: String, _ figures: [(String, Double)], suffix: String = "×", _ isMet: (Double) -> Bool) {
                guard !figures.isEmpty else { return }
                let measured = figures.map { "\($0.0) \(Format.number($0.1))\(suffix)" }.joined(separator: ", ")
                targets.append(Target(name: "[\(build)] \(name)", met: figures.allSatisfy { isMet($0.1) }, measured: measured))
            }
            target("untraced ≤ 0.5× OpenCombine", ratios(streaming + subscribing, .untraced, .openCombine)) { $0 <= 0.5 }
            target("traced ≤ 1.3× untraced (streaming)", ratios(streaming, .traced, .untraced)) { $0 <= 1.3 }
            target("hook-off within 2% of untraced", ratios(streaming, .hookOff, .untraced)) { $0 <= 1.02 }
            target(
                "≤ 150 instructions per recorded event",
                streaming.compactMap { scenario in
                    inBuild.first { $0.scenario == scenario && $0.variant == Variant.traced.rawValue }?.instructionsPerEvent
                        .map { (scenario, $0) }
                }, suffix: " Ir") { $0 <= 150 }
            target("a traced subscription ≤ 2× an untraced one", ratios(subscribing, .traced, .untraced)) { $0 <= 2 }
        }
        targets.append(Target(
            name: "a next record of at most 16 bytes", met: bytesPerNext <= 16,
            measured: "\(Format.number(bytesPerNext)) bytes"))
        return targets
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
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(Document(results: rows, targets: targets, machine: machine)), as: UTF8.self)
    }

    static func table(_ rows: [InstructionMeasurement], targets: [Target], machine: Machine, scale: Double) -> String {
        var lines = [
            "SignalScope instruction counts (callgrind): \(machine.cpu), \(machine.system), \(machine.date)",
            "instructions per operation in the measured region, scale \(Format.number(scale)); they repeat from run to run",
            "",
        ]
        let widths = [20, 14, 8, 11, 14, 11, 10, 9]
        for build in InstructionTargets.builds(of: rows) {
            lines.append("build: \(build)")
            lines.append(TableReport.row(["scenario", "variant", "", "Ir/op", "× OpenCombine", "× untraced", "events/op", "Ir/event"], widths))
            var previous: String?
            let inBuild = rows.filter { $0.build == build }
            for row in inBuild {
                func ratio(_ variant: Variant) -> String {
                    guard row.variant != variant.rawValue,
                        let base = inBuild.first(where: { $0.scenario == row.scenario && $0.variant == variant.rawValue })
                    else { return "" }
                    return Format.number(row.instructionsPerOp / base.instructionsPerOp)
                }
                lines.append(TableReport.row([
                    row.scenario == previous ? "" : row.scenario, row.variant, "", Format.count(Int(row.instructionsPerOp.rounded())),
                    ratio(.openCombine), row.variant == Variant.openCombine.rawValue ? "" : ratio(.untraced),
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
