import ArgumentParser
import Foundation

/// `signalscope-bench`: SignalScope's runtime, tracer, analyzers and renderer measured side
/// by side with OpenCombine in one process (docs/performance.md).
@main
struct Benchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signalscope-bench",
        abstract: "Measure SignalScope's runtime, tracer, analysis and rendering against OpenCombine.",
        discussion: """
            Prints a table of medians (ns per operation) with ratios to OpenCombine and to untraced \
            SignalScope, then the targets met or missed. Exit codes: 0 measured (whether or not \
            targets were met), 1 a measurement failed, 64 bad arguments.
            """,
        subcommands: [Run.self, Instructions.self, AnalyzeChild.self, SnapshotChild.self],
        defaultSubcommand: Run.self)
}

extension Benchmark {
    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Run the benchmarks (the default).")

        @Flag(help: "Print JSON on stdout instead of the table.")
        var json = false

        @Option(help: "Timed repetitions per variant; the median is reported.")
        var repetitions = 5

        @Option(help: "Untimed warm-up rounds before the timed ones.")
        var warmups = 1

        @Option(help: "Multiply every scenario's operation count, e.g. 0.1 for a quick look.")
        var scale = 1.0

        @Option(
            name: .customLong("only"), parsing: .upToNextOption,
            help: "Run only these scenarios: \(Benchmark.scenarioIDs.joined(separator: ", ")).")
        var scenarios: [String] = []

        @Option(
            name: .customLong("variant"), parsing: .upToNextOption,
            help: "Run only these variants of the throughput scenarios, e.g. for a profiler.")
        var variants: [Variant] = []

        func validate() throws {
            guard repetitions >= 1 else { throw ValidationError("--repetitions must be at least 1") }
            guard warmups >= 0 else { throw ValidationError("--warmups cannot be negative") }
            guard scale > 0, scale.isFinite else { throw ValidationError("--scale must be a positive number") }
            if let unknown = scenarios.first(where: { !Benchmark.scenarioIDs.contains($0) }) {
                throw ValidationError(
                    "unknown scenario '\(unknown)' (expected one of \(Benchmark.scenarioIDs.joined(separator: ", ")))")
            }
        }

        func run() throws {
            let progress = Progress()
            defer { progress.finish() }
            let selected = { (id: String) in scenarios.isEmpty || scenarios.contains(id) }
            var results: [Measurement] = []
            let runner = ThroughputRunner(repetitions: repetitions, warmups: warmups, progress: progress.show)
            for scenario in ThroughputScenario.all where selected(scenario.id) {
                results += try runner.run(scenario.scaled(by: scale).restricted(to: variants))
            }
            if selected("analyze") {
                let counts = [1_000_000, 10_000_000].map { max(10_000, Int(Double($0) * scale)) }
                results += try AnalyzeScenario(eventCounts: counts, repetitions: min(repetitions, 3), progress: progress.show).run()
            }
            if selected("read-switch-latest") {
                let counts = [1_000_000, 4_000_000].map { max(10_000, Int(Double($0) * scale)) }
                results += try AnalyzeScenario(
                    eventCounts: counts, repetitions: min(repetitions, 3), workload: .switchLatest, progress: progress.show
                ).run()
            }
            if selected("analyze-leaked-subscriptions") {
                let counts = [2_000, 200_000].map { max(1_000, Int(Double($0) * scale)) }
                results += try AnalyzeScenario(
                    eventCounts: counts, repetitions: min(repetitions, 3), workload: .leakedSubscriptions, progress: progress.show
                ).run()
            }
            let renders = [1_000, 10_000].filter { selected("render-\($0 / 1000)k") }
            if !renders.isEmpty {
                results += try RenderScenario(nodeCounts: renders, repetitions: min(repetitions, 3), progress: progress.show).run()
            }
            let snapshots = [10_000, 100_000].filter { selected("snapshot-\($0 / 1000)k") }
            if !snapshots.isEmpty {
                results += try SnapshotScenario(objectCounts: snapshots, repetitions: min(repetitions, 3), progress: progress.show).run()
            }
            let midRuns = [10_000, 100_000].filter { selected("midrun-\($0 / 1000)k") }
            if !midRuns.isEmpty {
                results += try SnapshotScenario(objectCounts: midRuns, repetitions: min(repetitions, 3), progress: progress.show, midRun: true).run()
            }
            progress.finish()
            let machine = Machine.current()
            let targets = Target.evaluate(results)
            print(json
                ? try JSONReport.render(results, targets: targets, machine: machine)
                : TableReport.render(results, targets: targets, machine: machine, repetitions: repetitions))
        }
    }

    /// Counts instructions per operation under callgrind, one child process per scenario and
    /// variant, for ratios that repeat on a noisy machine (`make bench-instructions`).
    struct Instructions: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Count instructions per operation of every throughput scenario under callgrind.",
            discussion: "Needs valgrind and objcopy on PATH. Exit codes: 0 measured, 1 a run failed, 64 bad arguments.")

        @Flag(help: "Print JSON on stdout instead of the table.")
        var json = false

        @Option(help: "Multiply every scenario's operation count (callgrind runs some 50 times slower).")
        var scale = 0.002

        @Option(help: "Also count this build of the benchmark, made with -cross-module-optimization.")
        var crossModuleBuild: String?

        @Option(
            name: .customLong("only"), parsing: .upToNextOption,
            help: "Count only these scenarios: \(ThroughputScenario.all.map(\.id).joined(separator: ", ")).")
        var scenarios: [String] = []

        func validate() throws {
            guard scale > 0, scale.isFinite else { throw ValidationError("--scale must be a positive number") }
            if let unknown = scenarios.first(where: { id in !ThroughputScenario.all.contains { $0.id == id } }) {
                throw ValidationError("unknown scenario '\(unknown)'")
            }
        }

        func run() throws {
            let progress = Progress()
            defer { progress.finish() }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("signalscope-instructions-\(getpid())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let ownBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
            let builds = [("default", ownBinary)] + (crossModuleBuild.map { [("cmo", $0)] } ?? [])
            var rows: [InstructionMeasurement] = []
            for (build, binary) in builds {
                let counter = try InstructionCounter(binary: binary, label: build, scale: scale, folder: folder)
                for scenario in ThroughputScenario.all where scenarios.isEmpty || scenarios.contains(scenario.id) {
                    var untraced: [Variant: Double] = [:]
                    for variant in scenario.variants where variant != .tracedValues {
                        progress.show("\(build) build: \(scenario.id) \(variant.rawValue) under callgrind")
                        let (instructions, events) = try counter.measure(scenario, variant)
                        if !variant.isTraced { untraced[variant] = instructions }
                        rows.append(InstructionMeasurement(
                            scenario: scenario.id, variant: variant.rawValue, build: build, unit: scenario.unit,
                            instructionsPerOp: instructions, eventsPerOp: variant.isTraced ? events : nil,
                            instructionsPerEvent: variant.isTraced
                                ? events.flatMap { events in untraced[variant.untracedPeer].map { (instructions - $0) / events } } : nil))
                    }
                }
            }
            progress.finish()
            let bytesPerNext = try InstructionCounter.bytesPerNextRecord()
            let targets = InstructionTargets.evaluate(rows, bytesPerNext: bytesPerNext)
            let machine = Machine.current()
            print(json
                ? try InstructionReport.json(rows, targets: targets, machine: machine)
                : InstructionReport.table(rows, targets: targets, machine: machine, scale: scale))
        }
    }

    /// Analyses one trace and prints what it measured: run by the analysis scenario in a
    /// child process, so that each trace's peak memory is its own.
    struct AnalyzeChild: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: AnalyzeScenario.AnalyzeChild.commandName, shouldDisplay: false)

        @Argument var trace: String

        func run() throws { try AnalyzeScenario.AnalyzeChild.run(path: trace) }
    }

    /// Builds an app of about this many objects, stops recording and prints what the closing
    /// snapshot cost: run by the snapshot scenario in a child process, so that its peak
    /// memory is its own.
    struct SnapshotChild: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: SnapshotScenario.SnapshotChild.commandName, shouldDisplay: false)

        @Argument var objects: Int
        /// `stop` (the closing snapshot) or `mid-run` (a watched object's deadline passing).
        @Argument var moment = "stop"

        func run() throws { try SnapshotScenario.SnapshotChild.run(objects: objects, midRun: moment == "mid-run") }
    }

    static let scenarioIDs = ThroughputScenario.all.map(\.id) + ["analyze", "read-switch-latest", "analyze-leaked-subscriptions", "render-1k", "render-10k", "snapshot-10k", "snapshot-100k", "midrun-10k", "midrun-100k"]
}

/// One status line on stderr while the benchmarks run, redrawn in place; nothing when stderr
/// is not a terminal, so logs and `make bench-json` stay clean.
final class Progress {
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private var shown = false

    func show(_ text: String) {
        guard isTerminal else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K\(text)".utf8))
        shown = true
    }

    func finish() {
        guard shown else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        shown = false
    }
}
