import Dispatch
import Foundation
import SignalScopeTools
import Testing

/// Hooks are global and other tests may record at the same time, so each test reads its
/// trace by the nodes it made itself. File recordings are one per process, hence serialized.
@Suite("Recording", .serialized, .timeLimit(.minutes(10)))
struct RecordTests {
    static let file = "SignalScopeTracingTests/RecordTests.swift"

    @Test("A scoped recording reads back the exact graph, subscription tree, events and disposals")
    func scopedScenario() throws {
        var source: Subject<Int>!
        var mapped: Signal<Int>!
        var evens: Signal<Int>!
        var lines: [UInt] = []
        let trace = Tracer.record(values: true) {
            source = Subject<Int>(); lines.append(#line)
            mapped = source.map { $0 * 10 }; lines.append(#line)
            evens = mapped.filter { $0 > 10 }.named("big"); lines.append(#line)
            let subscription = evens.subscribeNext { _ in }; lines.append(#line)
            source.sendNext(1)
            source.sendNext(2)
            subscription.dispose()
            source.sendNext(3)
        }
        #expect(trace.hasEnd)
        #expect(trace.warnings.isEmpty)

        let subject = try #require(trace.nodes[source.id])
        #expect(subject.kind == .subject && subject.name == "subject" && subject.parents.isEmpty)
        #expect(subject.site == TraceSite(file: Self.file, line: Int(lines[0]), function: "scopedScenario()"))
        let map = try #require(trace.nodes[mapped.id])
        #expect(map.kind == .operator && map.name == "map" && map.site.line == Int(lines[1]))
        #expect(map.parents == [NodeEdge(parent: source.id, kind: .data)])
        let filter = try #require(trace.nodes[evens.id])
        #expect(filter.name == "filter" && filter.userName == "big")
        #expect(filter.parents == [NodeEdge(parent: mapped.id, kind: .data)])

        let downstream = try #require(trace.subscriptions.values.first { $0.node == evens.id })
        #expect(downstream.parent == nil)
        #expect(downstream.site.line == Int(lines[3]))
        let middle = try #require(trace.children(of: downstream.id).first)
        #expect(middle.node == mapped.id)
        let upstream = try #require(trace.children(of: middle.id).first)
        #expect(upstream.node == source.id)

        #expect(upstream.values == ["1", "2"])
        #expect(middle.values == ["10", "20"])
        #expect(downstream.values == ["20"])
        #expect(downstream.ending == .disposed(.explicit))
        #expect(middle.ending == .disposed(.upstream))
        #expect(upstream.ending == .disposed(.upstream))
        #expect(!downstream.holdsObserver && !upstream.holdsObserver)
    }

    @Test("Terminal events, errors and violations are recorded; values are off by default")
    func terminalsAndViolations() throws {
        var subject: Subject<String>!
        var lateLine = 0
        let trace = Tracer.record {
            subject = Subject<String>()
            subject.subscribe()
            subject.sendNext("secret")
            subject.sendError(NSError(domain: "Network", code: 7))
            subject.sendNext("late")
            lateLine = #line - 1
        }
        let subscription = try #require(trace.subscriptions.values.first { $0.node == subject.id })
        #expect(subscription.values == [nil], "values are not recorded unless asked for")
        guard case .error(let description) = subscription.ending else {
            Issue.record("expected an error ending, got \(String(describing: subscription.ending))")
            return
        }
        #expect(description.contains("Network"))
        let violation = try #require(trace.violations.first { $0.node == subject.id && $0.event == .next })
        #expect(violation.site?.file == "SignalScopeTracingTests/RecordTests.swift")
        #expect(violation.site?.line == lateLine)
        #expect(violation.stack.split(separator: "\n").first?.contains("RecordTests.swift:\(lateLine))") == true, "\(violation.stack)")
    }

    @Test("Value summaries are cut to 80 characters")
    func boundedSummaries() throws {
        var signal: Signal<String>!
        let trace = Tracer.record(values: true) {
            signal = Signal.just(String(repeating: "x", count: 500))
            signal.subscribe()
        }
        let value = try #require(trace.subscriptions.values.first { $0.node == signal.id }?.values.first ?? nil)
        #expect(value.count == 80)
        #expect(value.hasSuffix("…"))
    }

    @Test("A recording ends with its scope: later events are not in it")
    func scopeEnds() throws {
        let subject = Subject<Int>()
        let trace = Tracer.record { subject.subscribe() }
        subject.sendNext(1)
        let subscription = try #require(trace.subscriptions.values.first { $0.node == subject.id })
        #expect(subscription.values.isEmpty)
    }

    @Test("No event is lost when several threads send at once")
    func concurrentSendsAreAllRecorded() throws {
        let threads = 4
        let perThread = 20_000
        let subject = Subject<Int>()
        let trace = Tracer.record {
            subject.subscribe()
            DispatchQueue.concurrentPerform(iterations: threads) { worker in
                for value in 0..<perThread { subject.sendNext(worker * perThread + value) }
            }
            subject.sendCompleted()
        }
        let subscription = try #require(trace.subscriptions.values.first { $0.node == subject.id })
        #expect(subscription.values.count == threads * perThread)
        #expect(subscription.ending == .completed)
        let sequences = trace.records.map(\.sequence)
        #expect(Set(sequences).count == sequences.count, "sequence numbers are unique")
        #expect(sequences == sequences.sorted())
    }

    @Test("startRecording writes a file that reads back; stopRecording flushes it")
    func fileRecording() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("signalscope-\(UUID()).sslog")
        defer { try? FileManager.default.removeItem(at: url) }
        try Tracer.startRecording(to: url)
        #expect(Tracer.isRecording)
        #expect(throws: RecordingError.alreadyRecording) { try Tracer.startRecording(to: url) }
        let signal = Signal.just(1).map { $0 + 1 }
        signal.subscribe()
        try Tracer.stopRecording()
        #expect(!Tracer.isRecording)
        try Tracer.stopRecording()

        let trace = try Trace(contentsOf: url)
        #expect(trace.hasEnd)
        #expect(trace.nodes[signal.id]?.name == "map")
        #expect(trace.subscriptions.values.first { $0.node == signal.id }?.ending == .completed)
    }

    @Test("startRecording to a place that cannot be written fails with the path and the reason")
    func unwritablePath() {
        let url = URL(fileURLWithPath: "/nonexistent-directory/trace.sslog")
        #expect(throws: RecordingError.cannotCreate(path: url.path, reason: "No such file or directory")) {
            try Tracer.startRecording(to: url)
        }
        #expect(!Tracer.isRecording)
    }
}
