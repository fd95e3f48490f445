import SignalScopeTools
import SignalScopeTesting
import Testing

@Suite("Operators: flattening and merging", .timeLimit(.minutes(10)))
struct FlattenTests {
    @Test("O3: flattenMap merges inner signals and completes when the outer and every inner have")
    func flattenMap() {
        let scheduler = TestScheduler()
        let outer = scheduler.createColdSignal([.next(0, "a"), .next(1, "b"), .completed(2)])
        let observer = TestObserver(
            outer.signal.flattenMap { name in
                scheduler.createColdSignal([.next(1, name + "1"), .next(3, name + "2"), .completed(4)]).signal
            }, clock: scheduler)
        scheduler.run()
        #expect(observer.recorded == [
            .next(1, "a1"), .next(2, "b1"), .next(3, "a2"), .next(4, "b2"), .completed(5),
        ])
    }

    @Test("O3: flatten fails on the first inner error and disposes every other inner subscription")
    func flattenError() {
        let scheduler = TestScheduler()
        let slow = scheduler.createColdSignal([.next(5, 1)] as [Recorded<Int>])
        let failing = scheduler.createColdSignal([.error(2, "inner")] as [Recorded<Int>])
        let outer = Signal<Signal<Int>> { subscriber in
            subscriber.sendNext(slow.signal)
            subscriber.sendNext(failing.signal)
            return nil
        }
        let observer = TestObserver(outer.flatten(), clock: scheduler)
        scheduler.run()
        #expect(observer.recorded == [.error(2, "inner")])
        #expect(slow.subscriptions == [SubscriptionSpan(0, 2)])
    }

    @Test("O3: disposing a flattened signal disposes the outer and all inner subscriptions")
    func flattenDispose() {
        let scheduler = TestScheduler()
        let inner = scheduler.createColdSignal([.next(10, 1)] as [Recorded<Int>])
        let outer = scheduler.createColdSignal([.next(1, inner.signal), .next(2, inner.signal)])
        let observer = TestObserver(outer.signal.flatten(), clock: scheduler)
        scheduler.advance(by: 3)
        observer.disposable.dispose()
        #expect(outer.subscriptions == [SubscriptionSpan(0, 3)])
        #expect(inner.subscriptions == [SubscriptionSpan(1, 3), SubscriptionSpan(2, 3)])
    }

    @Test("O3: an inner signal sending into the outer re-entrantly is merged in order")
    func flattenReentrant() {
        let outer = Subject<Signal<Int>>()
        let observer = TestObserver(outer.flatten())
        let reentrant = Signal<Int> { subscriber in
            subscriber.sendNext(1)
            outer.sendNext(Signal.just(2))
            subscriber.sendNext(3)
            subscriber.sendCompleted()
            return nil
        }
        outer.sendNext(reentrant)
        outer.sendCompleted()
        #expect(observer.recordedEvents == [.next(1), .next(3), .next(2), .completed])
    }

    @Test("O4: concat() subscribes to inner signals one at a time, in order")
    func concatSignals() {
        let scheduler = TestScheduler()
        let first = scheduler.createColdSignal([.next(1, "a"), .completed(2)])
        let second = scheduler.createColdSignal([.next(1, "b"), .completed(2)])
        let outer = scheduler.createColdSignal([.next(0, first.signal), .next(1, second.signal), .completed(1)])
        let observer = TestObserver(outer.signal.concat(), clock: scheduler)
        scheduler.run()
        #expect(observer.recorded == [.next(1, "a"), .next(3, "b"), .completed(4)])
        #expect(second.subscriptions == [SubscriptionSpan(2, 4)])
    }

    @Test("O4: concat() of many synchronous signals does not grow the stack")
    func concatManySynchronous() {
        let outer = Signal<Signal<Int>> { subscriber in
            for value in 0..<20_000 { subscriber.sendNext(.just(value)) }
            subscriber.sendCompleted()
            return nil
        }
        let observer = TestObserver(outer.concat())
        #expect(observer.values.count == 20_000)
        #expect(observer.isCompleted)
    }

    @Test("O18: merge sends values from every input as they arrive and completes after the last")
    func merge() {
        let scheduler = TestScheduler()
        let a = scheduler.createColdSignal([.next(1, "a"), .completed(4)])
        let b = scheduler.createColdSignal([.next(2, "b"), .completed(3)])
        let merged = TestObserver(Signal.merge([a.signal, b.signal]), clock: scheduler)
        let pair = TestObserver(a.signal.merge(b.signal), clock: scheduler)
        let empty = TestObserver(Signal<Int>.merge([]))
        scheduler.run()
        #expect(merged.recorded == [.next(1, "a"), .next(2, "b"), .completed(4)])
        #expect(pair.recorded == merged.recorded)
        #expect(empty.recordedEvents == [.completed])
    }

    @Test("O18: merge fails on the first error and disposes the other inputs")
    func mergeError() {
        let scheduler = TestScheduler()
        let endless = scheduler.createColdSignal([.next(9, 1)] as [Recorded<Int>])
        let failing = scheduler.createColdSignal([.error(2, "x")] as [Recorded<Int>])
        let observer = TestObserver(endless.signal.merge(failing.signal), clock: scheduler)
        scheduler.run()
        #expect(observer.recorded == [.error(2, "x")])
        #expect(endless.subscriptions == [SubscriptionSpan(0, 2)])
    }

    @Test("O7: concat(_:) sends this signal, then subscribes to the other")
    func concatOther() {
        let scheduler = TestScheduler()
        let first = scheduler.createColdSignal([.next(1, 1), .completed(2)])
        let second = scheduler.createColdSignal([.next(1, 2), .completed(2)])
        let observer = TestObserver(first.signal.concat(second.signal), clock: scheduler)
        scheduler.run()
        #expect(observer.recorded == [.next(1, 1), .next(3, 2), .completed(4)])

        let failing = scheduler.createColdSignal([.error(1, "no")] as [Recorded<Int>])
        let unused = scheduler.createColdSignal([.completed(1)] as [Recorded<Int>])
        let failed = TestObserver(failing.signal.concat(unused.signal), clock: scheduler)
        scheduler.run()
        #expect(failed.recordedEvents == [.error("no")])
        #expect(unused.subscriptions.isEmpty)
    }
}
