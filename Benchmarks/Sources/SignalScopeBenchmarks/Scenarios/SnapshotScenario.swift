import Foundation
import Synchronization
import SignalScopeTools

/// The closing heap snapshot: stopping a recording walks, in a forked copy of the process,
/// every object the program allocated while recording and what the live runtime objects
/// reach (docs/analyzers.md). Measured for apps of about 10,000 and 100,000 live objects,
/// each in a child process so that its peak memory is its own: the time `stopRecording()`
/// takes (the fork, the walk, its records, the last flush), how far the process's peak
/// resident memory rose above where it stood just before, and the pause the rest of the
/// program sees: the longest gap between two iterations of a thread that counts the while.
struct SnapshotScenario {
    let objectCounts: [Int]
    let repetitions: Int
    let progress: (String) -> Void
    /// Measures a mid-run snapshot instead (`midrun-10k`): a watched object's deadline
    /// passing while the app runs (`Tracer.expectDeallocation`), from the deadline to its
    /// `retained` record in the log.
    var midRun = false

    func run() throws -> [Measurement] {
        try objectCounts.map { target in
            let id = "\(midRun ? "midrun" : "snapshot")-\(target >= 1000 ? "\(target / 1000)k" : "\(target)")"
            var runs: [SnapshotRun] = []
            for round in 0..<repetitions {
                progress("\(id) round \(round + 1)/\(repetitions)")
                runs.append(try ChildProcess.run(SnapshotChild.commandName, "\(target)", midRun ? "mid-run" : "stop"))
            }
            let seconds = runs.map(\.seconds).median
            var measurement = Measurement(
                scenario: id, variant: midRun ? "deadline to record" : "stop recording", nsPerOp: seconds * 1e9 / Double(runs[0].objects),
                unit: "object", repetitions: repetitions)
            measurement.seconds = seconds
            measurement.objects = runs[0].objects
            measurement.peakHeapMebibytes = runs.map(\.peakGrowthMebibytes).max()
            measurement.pauseMilliseconds = runs.map(\.pauseMilliseconds).max()
            return measurement
        }
    }

    struct SnapshotRun: Codable {
        let seconds: Double
        /// Objects the walk recorded.
        let objects: Int
        /// How far peak resident memory rose above the resident memory before stopping.
        let peakGrowthMebibytes: Double
        /// The longest another thread of the program went without running while the
        /// recording stopped.
        let pauseMilliseconds: Double
    }

    /// One screen of a list-heavy app: a view model with a property, a subject, an operator
    /// chain whose closures capture it weakly, and the disposable it keeps. Nothing leaks.
    final class ScreenModel {
        let query = MutableProperty("")
        let refresh = Subject<Void>()
        var results: [String] = []
        var subscription: Disposable?

        func bind() {
            subscription = query.signal
                .filter { [weak self] text in text.count >= (self?.results.count ?? 0) }
                .map { $0.lowercased() }
                .subscribeNext { [weak self] text in self?.results.append(text) }
        }
    }

    /// The child process's side: build an app of about `objects` live objects while
    /// recording, stop, and print a ``SnapshotRun`` as JSON.
    enum SnapshotChild {
        static let commandName = "snapshot-child"

        static func run(objects target: Int, midRun: Bool) throws {
            let perScreen = try objectsPerScreen()
            let file = TraceFile(label: "snapshot")
            defer { file.remove() }
            try file.start(values: false)
            let screens = (0..<max(1, target / perScreen)).map { _ in
                let screen = ScreenModel()
                screen.bind()
                return screen
            }
            let before = ProcessMemory.residentMebibytes(field: "VmRSS:")
            ProcessMemory.resetPeak()
            let watcher = PauseWatcher()
            let start = Stopwatch.nanoseconds()
            if midRun {
                // One screen said to be dismissed, still held: its deadline passes at once, and
                // the watchlist's thread snapshots the heap while this one waits for the record.
                Tracer.expectDeallocation(of: screens[0], within: .zero, because: "benchmark")
                let reader = LiveLogReader(path: file.url.path)
                while !reader.poll().contains(where: { if case .extended(let event) = $0.event { event.payload is RetainedObject } else { false } }) {
                    usleep(1_000)
                }
            } else {
                try file.stop()
            }
            let seconds = Double(Stopwatch.nanoseconds() - start) / 1e9
            let pause = watcher.stop()
            let peak = ProcessMemory.residentMebibytes(field: "VmHWM:")
            if midRun { try file.stop() }
            let objects = try Trace(contentsOf: file.url, detail: .liveEntities).heap.objects.count
            withExtendedLifetime(screens) {}
            let run = SnapshotRun(
                seconds: seconds, objects: objects, peakGrowthMebibytes: max(0, peak - before), pauseMilliseconds: pause)
            FileHandle.standardOutput.write(try JSONEncoder().encode(run))
        }

        /// How many objects the walk finds per screen, from a small recording.
        private static func objectsPerScreen() throws -> Int {
            let sample = 20
            var screens: [ScreenModel] = []
            let trace = Tracer.record {
                screens = (0..<sample).map { _ in
                    let screen = ScreenModel()
                    screen.bind()
                    return screen
                }
            }
            withExtendedLifetime(screens) {}
            return max(1, trace.heap.objects.count / sample)
        }
    }
}

/// A thread of the program that goes on while a recording stops, noting the longest time it
/// went without running: the pause the program sees (the fork that copies the process's page
/// tables, and nothing else, should stop it).
final class PauseWatcher: @unchecked Sendable {
    private let running = Atomic<Bool>(true)
    private let longest = Atomic<UInt64>(0)
    private let done = DispatchSemaphore(value: 0)

    init() {
        Thread { [self] in watch() }.start()
        // Running before the recording stops, so that the first gap is not its start.
        while longest.load(ordering: .relaxed) == 0 { sched_yield() }
    }

    private func watch() {
        var last = Stopwatch.nanoseconds()
        while running.load(ordering: .relaxed) {
            let now = Stopwatch.nanoseconds()
            if now - last > longest.load(ordering: .relaxed) { longest.store(now - last, ordering: .relaxed) }
            last = now
        }
        done.signal()
    }

    /// Stops the thread; the longest gap, in milliseconds.
    func stop() -> Double {
        running.store(false, ordering: .relaxed)
        done.wait()
        return Double(longest.load(ordering: .relaxed)) / 1e6
    }
}
