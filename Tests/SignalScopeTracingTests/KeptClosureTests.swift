import Foundation
import SignalScopeTools
import Testing

/// Every closure the runtime keeps must be found in the closing snapshot under its role and
/// the line that passed it: that is how a finding names the closure to fix. Each closure
/// here captures one object and nothing else, so that object is its context (no box): the
/// shape whose words a reabstraction would change unseen.
@Suite("Closures the runtime keeps are named in the snapshot", .timeLimit(.minutes(10)))
struct KeptClosureTests {
    final class Sentinel: @unchecked Sendable {
        var count = 0
    }

    /// One API that keeps a closure: it makes a live stage whose closure captures
    /// `sentinel` and returns the line that passed the closure (`nil` for a role the runtime
    /// reports without a site) and what to keep alive.
    struct Case: Sendable, CustomTestStringConvertible {
        let role: String
        let api: String
        let make: @Sendable (_ source: Subject<Int>, _ sentinel: Sentinel) -> (line: Int?, keep: Any)
        var testDescription: String { "\(api): \(role)" }
    }

    static let cases: [Case] = [
        Case(role: "transform", api: "map") { source, sentinel in
            (#line, source.map { $0 + sentinel.count }.subscribe())
        },
        Case(role: "predicate", api: "filter") { source, sentinel in
            (#line, source.filter { $0 > sentinel.count }.subscribe())
        },
        Case(role: "predicate", api: "skipWhile") { source, sentinel in
            (#line, source.skipWhile { $0 > sentinel.count }.subscribe())
        },
        Case(role: "predicate", api: "takeWhile") { source, sentinel in
            (#line, source.takeWhile { $0 > sentinel.count }.subscribe())
        },
        Case(role: "predicate", api: "distinctUntilChanged(by:)") { source, sentinel in
            (#line, source.distinctUntilChanged { $0 == $1 + sentinel.count }.subscribe())
        },
        Case(role: "transform", api: "flattenMap") { source, sentinel in
            (#line, source.flattenMap { Signal.just($0 + sentinel.count) }.subscribe())
        },
        Case(role: "side effect", api: "doNext") { source, sentinel in
            (#line, source.doNext { _ in _ = sentinel.count }.subscribe())
        },
        Case(role: "side effect", api: "doError") { source, sentinel in
            (#line, source.doError { _ in _ = sentinel.count }.subscribe())
        },
        Case(role: "side effect", api: "doCompleted") { source, sentinel in
            (#line, source.doCompleted { _ = sentinel.count }.subscribe())
        },
        Case(role: "handler", api: "catch") { source, sentinel in
            (#line, source.catch { _ in Signal.just(sentinel.count) }.subscribe())
        },
        Case(role: "reducer", api: "scan") { source, sentinel in
            (#line, source.scan(0) { $0 + $1 + sentinel.count }.subscribe())
        },
        Case(role: "reducer", api: "aggregate") { source, sentinel in
            (#line, source.aggregate(0) { $0 + $1 + sentinel.count }.subscribe())
        },
        Case(role: "factory", api: "then") { source, sentinel in
            (#line, source.then { Signal.just(sentinel.count) }.subscribe())
        },
        Case(role: "factory", api: "defer") { source, sentinel in
            let deferred = Signal<Int>.defer { source.map { $0 + sentinel.count } }
            return (#line - 1, deferred.subscribe())
        },
        Case(role: "binder factory", api: "bind") { source, sentinel in
            let bound = source.bind {
                { value, _ in Signal.just(value + sentinel.count) }
            }
            return (#line - 3, bound.subscribe())
        },
        Case(role: "creation block", api: "Signal { }") { source, sentinel in
            let signal = Signal<Int> { subscriber in
                subscriber.sendNext(sentinel.count)
                return source.subscribe(subscriber)
            }
            return (#line - 4, (signal, signal.subscribe()))
        },
        Case(role: "next closure", api: "subscribeNext") { source, sentinel in
            (#line, source.subscribeNext { _ in _ = sentinel.count })
        },
        Case(role: "error closure", api: "subscribe(error:)") { source, sentinel in
            (#line, source.subscribe(error: { _ in _ = sentinel.count }))
        },
        Case(role: "completed closure", api: "subscribe(completed:)") { source, sentinel in
            (#line, source.subscribe(completed: { _ = sentinel.count }))
        },
        Case(role: "execution block", api: "Command") { _, sentinel in
            (#line, Command<Int, Int> { Signal.just($0 + sentinel.count) })
        },
        Case(role: "scheduled action", api: "TestScheduler.schedule") { _, sentinel in
            let scheduler = TestScheduler()
            return (nil, (scheduler, scheduler.schedule(after: Date.distantFuture) { _ = sentinel.count }))
        },
    ]

    @Test("I7: every kept closure is named with its role and site", arguments: cases)
    func named(_ kept: Case) throws {
        let source = Subject<Int>()
        defer { source.sendCompleted() }
        let sentinel = Sentinel()
        var made: (line: Int?, keep: Any)?
        let trace = Tracer.record { made = kept.make(source, sentinel) }
        let heap = trace.heap
        let address = UInt64(UInt(bitPattern: Unmanaged.passUnretained(sentinel).toOpaque()))
        let target = try #require(heap.objects.values.first { $0.address == address })
        // The named references from which the sentinel can be reached.
        let naming = heap.references.filter { reference in
            guard reference.closure?.role == kept.role else { return false }
            var pending = [reference.to]
            var seen: Set<ObjectID> = []
            while let next = pending.popLast() {
                if next == target.id { return true }
                guard seen.insert(next).inserted else { continue }
                pending += heap.references(from: next).map(\.to)
            }
            return false
        }
        #expect(!naming.isEmpty, "no \(kept.role) reaches the sentinel")
        if let line = made?.line {
            #expect(naming.contains { $0.closure?.site?.line == line }, "\(naming.map { $0.closure?.site.map(String.init(describing:)) ?? "-" })")
        }
        withExtendedLifetime(made) {}
    }
}
