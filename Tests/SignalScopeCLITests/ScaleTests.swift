import Foundation
import SignalScopeTools
import Testing

/// Analysis must stay linear (or n log n) in the trace's size. A real program's many
/// subscriptions to one app-wide signal made before recording started once made every
/// leaked subscription scan all the others: the leak corpus test hung `make test` for
/// minutes. A guard against that blow-up, not a benchmark (the `analyze-leaked-subscriptions`
/// scenario holds the figures, docs/performance.md).
@Suite("Analysis at scale", .atScale, .timeLimit(.minutes(10)))
struct ScaleTests {
    /// `count` subscriptions to one subject the trace never saw made, each with its
    /// disposable dropped, as the heap walk records them: the subject holds them all in its
    /// subscriber list and each holds the subject and its disposable.
    static func leakedSubscriptions(_ count: Int) -> CraftedLog {
        var log = CraftedLog()
        let subject: UInt64 = 1
        for id in 1...UInt64(count) {
            log.subscribe(id, to: subject, file: "App/Rows.swift", function: "configure()", line: 12)
            log.observerStored(id, handlers: 1)
        }
        log.snapshot()
        for id in 1...UInt64(count) { log.alive(.subscription, id, retainCount: 1) }
        let subscribers: UInt64 = 2
        log.heapObject(subject, typeName: "SignalScope.Subject<Swift.String>", retainCount: UInt64(count) + 1, category: 1)
        log.heapObject(subscribers, typeName: "Swift._ContiguousArrayStorage<Swift.AnyObject>", category: 2)
        log.reference(from: subject, to: subscribers, path: "state.subscribers")
        for id in 1...UInt64(count) {
            let subscriber = 2 + id * 2, disposable = subscriber + 1
            log.heapObject(subscriber, typeName: "SignalScope.Subscriber<Swift.String>", category: 1, entityKind: 2, entityID: id)
            log.heapObject(disposable, typeName: "SignalScope.SubscriptionDisposable", category: 1, entityKind: 3, entityID: id)
            log.reference(from: subscriber, to: subject, path: "source")
            log.reference(from: subscriber, to: disposable, path: "disposable")
            log.reference(from: subscribers, to: subscriber, path: "")
        }
        log.end()
        return log
    }

    /// Reading and analysing `log` as `check` does, the fastest of `rounds` runs.
    static func analysisSeconds(_ log: CraftedLog, rounds: Int, expecting count: Int) throws -> Double {
        let data = Data(log.bytes)
        var fastest = Double.infinity
        for _ in 0..<rounds {
            let start = ContinuousClock.now
            let findings = try Trace(data: data, path: "crafted", detail: .liveEntities).analyze().findings
            let elapsed = ContinuousClock.now - start
            fastest = min(fastest, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
            #expect(findings.map(\.rule) == [.leakedSubscription], "\(findings.map(\.rule))")
            #expect(findings.first?.count == count)
            #expect(findings.first?.message.contains("made before the trace started") == true, "\(findings.first?.message ?? "")")
        }
        return fastest
    }

    @Test("Two hundred thousand leaked subscriptions to a signal made before recording cost no more each than two thousand")
    func leakedSubscriptionsToAnUntracedSignal() throws {
        let small = 2_000, large = 200_000
        let perSmall = try Self.analysisSeconds(Self.leakedSubscriptions(small), rounds: 3, expecting: small) / Double(small)
        let perLarge = try Self.analysisSeconds(Self.leakedSubscriptions(large), rounds: 1, expecting: large) / Double(large)
        // Linear work keeps the ratio near 1 and quadratic work makes it near 100; the
        // generous bound leaves room for a noisy machine, caches and n log n sorting.
        #expect(perLarge < perSmall * 10, "per subscription: \(perSmall * 1e6) µs at \(small), \(perLarge * 1e6) µs at \(large)")
    }
}
