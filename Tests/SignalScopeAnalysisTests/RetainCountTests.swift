import Foundation
import SignalScopeTools
@testable import SignalScopeAnalysis
import Testing

/// The walk skips the runtime's noncopyable fields (its locks), trusting that the runtime
/// keeps no reference in them: its guarded state sits beside its locks. If one did, the
/// object it holds would have a retain count the walk cannot explain, and would look held
/// from outside. Here every kind of runtime object is made part of one leak, and trial
/// deletion must explain every retain count of all of them.
@Suite("Retain counts of the runtime's objects", .timeLimit(.minutes(10)))
struct RetainCountTests {
    final class Hub {
        let taps = Subject<Int>()
        let replayed = ReplaySubject<Int>(capacity: 2)
        let state = BehaviorSubject(0)
        let query = MutableProperty("")
        let mirrored = MutableProperty("")
        let scheduler = TestScheduler()
        let bag = CompoundDisposable()
        let serial = SerialDisposable()
        var save: Command<Int, Int>?
        var ticks = 0

        func bindEverything() {
            bag.add(taps.map { $0 + self.ticks }.filter { $0 > self.ticks }.subscribeNext { _ in self.ticks += 1 })
            bag.add(Signal.combineLatest(taps, state).subscribeNext { _ in self.ticks += 1 })
            bag.add(taps.merge(replayed).takeUntil(query.signal.filter { $0 == "stop" }).subscribeNext { _ in self.ticks += 1 })
            bag.add(taps.flattenMap { _ in self.replayed.take(1) }.scan(0) { $0 + $1 + self.ticks }.subscribeNext { _ in })
            bag.add(taps.deliver(on: scheduler).throttle(1, on: scheduler).subscribeNext { _ in self.ticks += 1 })
            serial.inner = Signal<Date>.interval(1, on: scheduler).subscribeNext { _ in self.ticks += 1 }
            bag.add(scheduler.schedule(after: Date.distantFuture) { self.ticks += 1 })
            mirrored.bind(to: query.signal.map { $0.uppercased() + "\(self.ticks)" })
            save = Command(enabled: state.map { $0 >= 0 }) { input in Signal.just(input + self.ticks) }
            save?.executionSignals.subscribeNext { _ in self.ticks += 1 }
            save?.execute(1)
            taps.sendNext(1)
            replayed.sendNext(2)
            query.value = "go"
            scheduler.advance(by: 3)
        }
    }

    @Test("In a leak running through every kind of runtime object, every retain count is explained")
    func everyRetainCountExplained() throws {
        weak var watched: Hub?
        let trace = Tracer.record {
            let hub = Hub()
            hub.bindEverything()
            watched = hub
        }
        try #require(watched != nil, "ground truth: the hub leaks")
        let model = LeakModel(trace)
        let hub = try #require(trace.heap.objects.values.first { $0.typeName.hasSuffix(".Hub") }?.id)
        #expect(model.garbage.contains(hub))
        // Everything the hub reaches leaks with it: every retain count among them is made of
        // references the walk found.
        var reached: Set<ObjectID> = []
        var pending = [hub]
        while let next = pending.popLast() {
            guard reached.insert(next).inserted else { continue }
            pending += model.references(from: next).map(\.to)
        }
        let runtime = reached.filter { trace.heap.objects[$0]?.category == .runtime }
        #expect(runtime.count > 50, "every kind of runtime object takes part")
        // The objects whose own count is not explained (what keeps the rest alive).
        let unexplained = reached.filter(model.isHeldFromOutside).compactMap { id in
            trace.heap.objects[id].map { "\($0.typeName) (retain count \($0.retainCount), \(model.references(to: id).count) found)" }
        }
        #expect(unexplained.isEmpty, "\(unexplained.sorted())")
    }
}
