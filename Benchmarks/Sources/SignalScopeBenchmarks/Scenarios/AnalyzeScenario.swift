import Foundation
import SignalScopeTools

/// Analysing a recorded trace the way `signalscope check` does: read it keeping live
/// entities only, then run every rule. Each trace is analysed in a child process so its peak
/// memory is its own.
struct AnalyzeScenario {
    /// What the analysed trace records.
    enum Workload: String {
        /// 500 screens, each a short pipeline (see ``record(events:to:)``).
        case screens = "analyze"
        /// `switchToLatest` over a new inner signal per value: a node, an edge and
        /// subscriptions per value, the shape that once made reading back quadratic.
        case switchLatest = "read-switch-latest"
        /// Subscriptions to one subject made before recording started, each with its
        /// disposable dropped: every one a leak to name, the shape that once made the
        /// analysis quadratic (each leaked subscription scanned all the others).
        case leakedSubscriptions = "analyze-leaked-subscriptions"
    }

    /// The sizes of trace analysed, in events (in subscriptions for
    /// ``Workload/leakedSubscriptions``): two, to show whether memory and the time per event
    /// grow with them.
    let eventCounts: [Int]
    let repetitions: Int
    var workload = Workload.screens
    let progress: (String) -> Void

    func run() throws -> [Measurement] {
        try eventCounts.map { target in
            let file = TraceFile(label: "analyze")
            defer { file.remove() }
            progress("\(workload.rawValue): recording a trace of about \(target) events")
            switch workload {
            case .screens: try Self.record(events: target, to: file)
            case .switchLatest: try Self.recordSwitchLatest(events: target, to: file)
            case .leakedSubscriptions: try Self.recordLeakedSubscriptions(target, to: file)
            }
            var runs: [AnalysisRun] = []
            for round in 0..<repetitions {
                progress("\(workload.rawValue) \(target) events round \(round + 1)/\(repetitions)")
                runs.append(try ChildProcess.run(AnalyzeChild.commandName, file.url.path))
            }
            let seconds = runs.map(\.seconds).median
            let events = runs[0].events
            let perSubscription = workload == .leakedSubscriptions
            var measurement = Measurement(
                scenario: workload.rawValue,
                variant: perSubscription ? "\(target)-subscriptions" : Self.label(events: target),
                nsPerOp: seconds * 1e9 / Double(perSubscription ? target : events),
                unit: perSubscription ? "subscription" : "event", repetitions: repetitions)
            measurement.events = events
            if perSubscription { measurement.subscriptions = target }
            measurement.eventsPerSecond = Double(events) / seconds
            measurement.peakHeapMebibytes = runs.map(\.peakHeapMebibytes).max()
            return measurement
        }
    }

    static func label(events: Int) -> String {
        events >= 1_000_000 && events.isMultiple(of: 1_000_000) ? "\(events / 1_000_000)M-events" : "\(events)-events"
    }

    /// Records 500 screens that each make a short pipeline, send it values and complete it;
    /// ten of them forget to complete their subjects, so the rules have leaks to find. A
    /// longer trace sends more values per screen: the same graph with more events, so the
    /// analysis's memory should not grow with them. (It grows with the nodes created, which
    /// it keeps to name what it finds; see docs/performance.md.)
    static func record(events target: Int, to file: TraceFile) throws {
        let screens = 500
        // Each value is recorded by the map stage's subscription and by the subscriber's.
        let valuesPerScreen = max(1, target / (screens * 2))
        var forgotten: [Subject<Int>] = []
        try file.start(values: false)
        for screen in 0..<screens {
            let subject = Subject<Int>()
            var sum = 0
            subject.map { $0 &* 2 }.subscribeNext { sum &+= $0 }
            for value in 0..<valuesPerScreen { subject.sendNext(value) }
            if screen % 50 == 0 { forgotten.append(subject) } else { subject.sendCompleted() }
        }
        try file.stop()
        withExtendedLifetime(forgotten) {}
    }

    /// Records `switchToLatest` over a new `just` per value, about 12 events a value.
    static func recordSwitchLatest(events target: Int, to file: TraceFile) throws {
        let subject = Subject<Int>()
        var sum = 0
        try file.start(values: false)
        let disposable = subject.map { Signal<Int>.just($0) }.switchToLatest().subscribeNext { sum &+= $0 }
        for value in 0..<max(1, target / 12) { subject.sendNext(value) }
        subject.sendCompleted()
        disposable.dispose()
        try file.stop()
    }

    /// Records `count` subscriptions to a subject made before recording started, none of
    /// them ever disposed.
    static func recordLeakedSubscriptions(_ count: Int, to file: TraceFile) throws {
        let subject = Subject<Int>()
        var sum = 0
        try file.start(values: false)
        for _ in 0..<count { subject.subscribeNext { sum &+= $0 } }
        try file.stop()
        withExtendedLifetime(subject) {}
    }

    struct AnalysisRun: Codable {
        let seconds: Double
        let events: Int
        let findings: Int
        let peakHeapMebibytes: Double
    }

    /// The child process's side: analyse one trace and print an ``AnalysisRun`` as JSON.
    enum AnalyzeChild {
        static let commandName = "analyze-child"

        static func run(path: String) throws {
            var peak = ProcessMemory.residentMebibytes(field: "RssAnon:")
            let start = Stopwatch.nanoseconds()
            let trace = try Trace(contentsOf: URL(fileURLWithPath: path), detail: .liveEntities) { _ in
                peak = max(peak, ProcessMemory.residentMebibytes(field: "RssAnon:"))
            }
            peak = max(peak, ProcessMemory.residentMebibytes(field: "RssAnon:"))
            let report = trace.analyze()
            let seconds = Double(Stopwatch.nanoseconds() - start) / 1e9
            peak = max(peak, ProcessMemory.residentMebibytes(field: "RssAnon:"))
            let run = AnalysisRun(
                seconds: seconds, events: trace.eventCount, findings: report.findings.count, peakHeapMebibytes: peak)
            FileHandle.standardOutput.write(try JSONEncoder().encode(run))
        }
    }
}
