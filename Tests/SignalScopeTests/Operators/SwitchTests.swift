import SignalScopeTools
import SignalScopeTesting
import Testing

@Suite("Operators: switching", .timeLimit(.minutes(10)))
struct SwitchTests {
    @Test("O5: switchToLatest forwards only the latest inner signal and disposes the previous one")
    func switchToLatest() {
        let scheduler = TestScheduler()
        let first = scheduler.createColdSignal([.next(1, "a1"), .next(3, "a2"), .completed(4)])
        let second = scheduler.createColdSignal([.next(1, "b1"), .completed(2)])
        let outer = scheduler.createColdSignal([.next(0, first.signal), .next(2, second.signal), .completed(3)])
        let observer = TestObserver(outer.signal.switchToLatest(), clock: scheduler)
        scheduler.run()
        #expect(observer.recorded == [.next(1, "a1"), .next(3, "b1"), .completed(4)])
        #expect(first.subscriptions == [SubscriptionSpan(0, 2)])
    }

    @Test("O5: switchToLatest waits for the latest inner signal after the outer completes")
    func switchWaitsForInner() {
        let scheduler = TestScheduler()
        let inner = scheduler.createColdSignal([.next(2, 1), .completed(5)])
        let outer = scheduler.createColdSignal([.next(0, inner.signal), .completed(1)])
        let observer = TestObserver(outer.signal.switchToLatest(), clock: scheduler)
        scheduler.run()
        #expect(observer.recorded == [.next(2, 1), .completed(5)])
    }

    @Test("O5: an error from the latest inner signal fails the result")
    func switchInnerError() {
        let scheduler = TestScheduler()
        let inner = scheduler.createColdSignal([.error(1, "request failed")] as [Recorded<Int>])
        let outer = scheduler.createColdSignal([.next(0, inner.signal)])
        let observer = TestObserver(outer.signal.switchToLatest(), clock: scheduler)
        scheduler.run()
        #expect(observer.recorded == [.error(1, "request failed")])
        #expect(outer.subscriptions == [SubscriptionSpan(0, 1)])
    }

    @Test("O5: an inner signal that makes the outer switch re-entrantly is replaced cleanly")
    func switchReentrant() {
        let outer = Subject<Signal<Int>>()
        let observer = TestObserver(outer.switchToLatest())
        let cleanups = Counter()
        let switching = Signal<Int> { subscriber in
            subscriber.sendNext(1)
            outer.sendNext(Signal.just(2))
            subscriber.sendNext(3)
            return Disposable { cleanups.increment() }
        }
        outer.sendNext(switching)
        outer.sendCompleted()
        #expect(observer.recordedEvents == [.next(1), .next(3), .next(2), .completed])
        #expect(cleanups.count == 1)
    }

    @Test("O5: disposing the result disposes the outer and the current inner subscription")
    func switchDispose() {
        let scheduler = TestScheduler()
        let inner = scheduler.createColdSignal([.next(5, 1)] as [Recorded<Int>])
        let outer = scheduler.createColdSignal([.next(1, inner.signal)])
        let observer = TestObserver(outer.signal.switchToLatest(), clock: scheduler)
        scheduler.advance(by: 2)
        observer.disposable.dispose()
        #expect(outer.subscriptions == [SubscriptionSpan(0, 2)])
        #expect(inner.subscriptions == [SubscriptionSpan(1, 2)])
    }

    @Test("O35: Signal.if follows the branch the latest condition picks")
    func ifThenElse() {
        let scheduler = TestScheduler()
        let condition = scheduler.createColdSignal([.next(0, true), .next(2, false), .completed(3)])
        let yes = scheduler.createColdSignal([.next(1, "yes"), .next(5, "late yes")])
        let no = scheduler.createColdSignal([.next(1, "no"), .completed(2)])
        let observer = TestObserver(Signal.if(condition.signal, then: yes.signal, else: no.signal), clock: scheduler)
        scheduler.run()
        #expect(observer.recorded == [.next(1, "yes"), .next(3, "no"), .completed(4)])
        #expect(yes.subscriptions == [SubscriptionSpan(0, 2)])
    }

    @Test("O6: bind merges the signals its binder returns and stops taking values on stop")
    func bind() {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal([.next(1, 1), .next(2, 2), .next(3, 3), .completed(4)])
        let bound = source.signal.bind { () -> (Int, inout Bool) -> Signal<String>? in
            var seen = 0
            return { value, stop in
                seen += 1
                if value == 2 { stop = true }
                return scheduler.createColdSignal([.next(1, "\(value)#\(seen)"), .completed(2)]).signal
            }
        }
        let observer = TestObserver(bound, clock: scheduler)
        scheduler.run()
        #expect(observer.recorded == [.next(2, "1#1"), .next(3, "2#2"), .completed(4)])
        #expect(source.subscriptions == [SubscriptionSpan(0, 2)])
    }

    @Test("O6: a binder that returns nil completes the result once earlier signals complete")
    func bindNil() {
        let source = Subject<Int>()
        let bound = source.bind { { value, _ in value < 3 ? Signal.just(value * 2) : nil } }
        let observer = TestObserver(bound)
        source.sendNext(1)
        source.sendNext(2)
        source.sendNext(3)
        source.sendNext(4)
        #expect(observer.recordedEvents == [.next(2), .next(4), .completed])
    }
}
