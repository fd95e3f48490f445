import Foundation
import SignalScopeTools
import Testing

/// Causes (docs/event-log.md, "Causes"): each event names the event whose delivery it
/// happened in, on the same thread, or whose delivery scheduled the action it happened in.
@Suite("Causality", .timeLimit(.minutes(10)))
struct CausalityTests {
    /// The records of `trace` about subscriptions to `node`, of one kind.
    private func events(_ trace: Trace, on node: NodeID, _ name: String) -> [TraceRecord] {
        trace.records.filter { record in
            record.event.name == name && record.event.subscription.flatMap { trace.subscriptions[$0]?.node } == node
        }
    }

    @Test("A value's chain runs back through every operator and observer to the send in user code")
    func chainThroughOperatorsAndObservers() throws {
        var query: Subject<String>!
        var results: Subject<Int>!
        var counted: Signal<Int>!
        let trace = Tracer.record(values: true) {
            query = Subject<String>().named("query")
            results = Subject<Int>().named("results")
            let lengths = query.map { $0.count }
            lengths.subscribeNext { results.sendNext($0) }
            counted = results.filter { $0 > 1 }
            counted.subscribeNext { _ in }
            query.sendNext("a")
            query.sendNext("abc")
        }
        let delivered = events(trace, on: counted.id, "next")
        #expect(delivered.count == 1)
        let last = try #require(delivered.last)
        let chain = trace.causes(of: last)
        let nodes = chain.compactMap { $0.event.subscription.flatMap { trace.subscriptions[$0]?.node } }
        // filter's subscriber ← results' subscriber (the filter stage) ← the observer of
        // map ← map's subscription to query: four deliveries, nearest first.
        #expect(chain.allSatisfy { $0.cause == nil || $0.cause?.kind == .during })
        #expect(nodes.last == query.id, "the chain ends at the value user code sent to the subject")
        #expect(nodes.contains(results.id))
        #expect(chain.last?.cause == nil)
        if case .next(_, let value) = chain.last?.event { #expect(value == "abc") } else { Issue.record("\(chain)") }
        // Two sends from user code: two roots, each caused by nothing.
        #expect(events(trace, on: query.id, "next").allSatisfy { $0.cause == nil })
    }

    @Test("A value delayed on a scheduler names the value whose delivery scheduled it")
    func scheduledCause() throws {
        let scheduler = TestScheduler()
        var source: Subject<Int>!
        var delayed: Signal<Int>!
        let trace = Tracer.record {
            source = Subject<Int>()
            delayed = source.delay(0.5, on: scheduler)
            delayed.subscribeNext { _ in }
            source.sendNext(1)
            scheduler.advance(by: 1)
        }
        let late = try #require(events(trace, on: delayed.id, "next").first)
        #expect(late.cause?.kind == .scheduled)
        let chain = trace.causes(of: late)
        #expect(chain.last.flatMap { $0.event.subscription.flatMap { trace.subscriptions[$0]?.node } } == source.id)
        #expect(trace.usesVirtualTime)
        let times = trace.records.compactMap { record -> Int64? in
            if case .virtualTime(let nanoseconds) = record.event { nanoseconds } else { nil }
        }
        #expect(times == [500_000_000], "the delayed value ran at 0.5 s of virtual time")
    }

    @Test("A subscription made in an observer, and the disposal a terminal event causes, name their cause")
    func subscriptionsAndDisposals() throws {
        var trigger: Subject<Int>!
        var inner: Subject<Int>!
        let trace = Tracer.record {
            trigger = Subject<Int>()
            inner = Subject<Int>()
            trigger.subscribeNext { _ in inner.subscribeNext { _ in } }
            trigger.sendNext(1)
            trigger.sendCompleted()
        }
        let subscribed = try #require(events(trace, on: inner.id, "subscribe").first)
        let cause = try #require(subscribed.cause.flatMap { trace.record(withSequence: $0.sequence) })
        #expect(cause.event.name == "next" && cause.event.subscription.flatMap { trace.subscriptions[$0]?.node } == trigger.id)
        let completed = try #require(events(trace, on: trigger.id, "completed").first)
        let disposal = try #require(events(trace, on: trigger.id, "disposed").first)
        #expect(disposal.cause?.sequence == completed.sequence)
    }

    @Test("With two recordings at once, each records the same chains in its own numbers")
    func nestedRecordings() throws {
        var source: Subject<Int>!
        var mapped: Signal<Int>!
        var inner: Trace!
        let outer = Tracer.record {
            inner = Tracer.record {
                source = Subject<Int>()
                mapped = source.map { $0 + 1 }
                mapped.subscribeNext { _ in }
                source.sendNext(1)
            }
        }
        for trace in [outer, inner!] {
            for record in trace.records {
                guard let cause = record.cause else { continue }
                let named = try #require(trace.record(withSequence: cause.sequence), "a cause is a record of the same trace")
                #expect(named.sequence < record.sequence)
                #expect(named.thread == record.thread || cause.kind == .scheduled)
            }
        }
        for trace in [outer, inner!] {
            let last = try #require(events(trace, on: mapped.id, "next").first)
            let root = try #require(trace.causes(of: last).last)
            #expect(root.event.subscription.flatMap { trace.subscriptions[$0]?.node } == source.id)
        }
    }
}
