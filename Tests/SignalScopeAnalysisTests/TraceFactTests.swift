import Foundation
import SignalScopeTools
import Testing

/// Facts the rules need are the analysis's (`Facts/`), registered when the program loads and
/// gathered in a trace's one read, whatever the trace keeps.
@Suite("Trace facts", .timeLimit(.minutes(10)))
struct TraceFactTests {
    /// A fact of a test's own: how many records it was shown, whether in the log's order, and
    /// whether the trace concluded it. (Every trace read after the test registers it gathers
    /// it too, so it keeps no more than that.)
    struct SeenRecords: TraceFact {
        var count = 0
        var last: UInt64?
        var inOrder = true
        var finished = false

        mutating func observe(_ record: TraceRecord, in trace: Trace) {
            count += 1
            if let last, record.sequence <= last { inOrder = false }
            last = record.sequence
        }
        mutating func finish(in trace: Trace) { finished = true }
        func restricted(to trace: Trace) -> SeenRecords { SeenRecords() }
    }

    /// A fact that follows failures only.
    struct SeenFailures: TraceFact {
        static var follows: TraceEvent.Kinds { .error }
        var kinds: [TraceEvent.Kinds] = []

        mutating func observe(_ record: TraceRecord, in trace: Trace) { kinds.append(record.event.kind) }
        mutating func finish(in trace: Trace) {}
        func restricted(to trace: Trace) -> SeenFailures { self }
    }

    @Test("The analysis's facts are registered at load, and a read gathers each of them")
    func registeredAtLoad() throws {
        let registered = Set(TraceFacts.all.map { ObjectIdentifier($0) })
        #expect(registered.isSuperset(of: [ObjectIdentifier(ColdRuns.self), ObjectIdentifier(FailedSubscriptions.self)]))
        let trace = Tracer.record { Signal<Int>.just(1).subscribe(next: { _ in }) }
        #expect(trace.gathered(ColdRuns.self) && trace.gathered(FailedSubscriptions.self))
    }

    @Test("A registered fact sees every record once, in order, and is concluded; a restricted trace restricts it")
    func gatheredInTheRead() throws {
        TraceFacts.gather(SeenRecords.self)
        TraceFacts.gather(SeenRecords.self)
        #expect(TraceFacts.all.filter { ObjectIdentifier($0) == ObjectIdentifier(SeenRecords.self) }.count == 1, "registered once")
        let trace = Tracer.record {
            let subject = Subject<Int>()
            let subscription = subject.subscribe(next: { _ in })
            subject.sendNext(1)
            subscription.dispose()
        }
        let seen = try #require(trace.fact(SeenRecords.self))
        #expect(seen.finished)
        #expect(seen.count == trace.records.count && seen.inOrder, "every record once, in the log's order")
        #expect(trace.restricted { _ in false }.fact(SeenRecords.self)?.count == 0)
    }

    @Test("A growing trace's view concludes copies of its facts: the view keeps what they had seen, and the trace goes on gathering, not concluded")
    func aViewKeepsItsOwnFacts() throws {
        TraceFacts.gather(SeenRecords.self)
        let recorded = Tracer.record {
            let subject = Subject<Int>()
            let subscription = subject.subscribe(next: { _ in })
            for value in 0..<4 { subject.sendNext(value) }
            subscription.dispose()
        }
        var growing = Trace(growing: .everything)
        let half = recorded.records.count / 2
        for record in recorded.records[..<half] { growing.add(record) }
        let view = growing.soFar
        for record in recorded.records[half...] { growing.add(record) }
        let seenInView = try #require(view.fact(SeenRecords.self))
        let seenGrowing = try #require(growing.fact(SeenRecords.self))
        #expect(seenInView.finished && seenInView.count == half)
        #expect(!seenGrowing.finished && seenGrowing.count == recorded.records.count)
    }

    @Test("A fact is shown only the kinds of records it follows")
    func onlyTheKindsItFollows() throws {
        struct Failure: Error {}
        TraceFacts.gather(SeenFailures.self)
        let trace = Tracer.record {
            let subject = Subject<Int>()
            subject.subscribe(next: { _ in }, error: { _ in })
            subject.subscribe(next: { _ in }, error: { _ in })
            subject.sendNext(1)
            subject.sendError(Failure())
        }
        let failures = trace.records.filter { $0.event.kind == .error }
        #expect(failures.count == 2 && trace.records.count > failures.count)
        #expect(try #require(trace.fact(SeenFailures.self)).kinds == [.error, .error])
    }

    @Test("A failure no handler takes is found in a trace that keeps only live entities, where the subscription is gone")
    func keptWithLiveEntitiesOnly() throws {
        struct Failure: Error {}
        let log = Tracer.recordKeepingLog(values: false, heapLimits: .standard) {
            Signal<Int>.error(Failure()).subscribe(next: { _ in })
        }.log
        let trace = try Trace(data: Data(log), path: "memory", detail: .liveEntities)
        #expect(trace.subscriptions.isEmpty, "the failed subscription ended, so a live-entities trace keeps none")
        #expect(trace.fact(FailedSubscriptions.self)?.subscriptions.count == 1)
        #expect(trace.analyze(rules: [.unhandledError]).findings.map(\.rule) == [.unhandledError])
    }
}
