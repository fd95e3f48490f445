import SignalScopeTools
import SignalScopeTesting
import Testing

@Suite("Operators: take, skip and friends", .timeLimit(.minutes(10)))
struct TakeSkipTests {
    @Test("O10: take sends the first values, completes, and disposes the source")
    func take() {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal([.next(1, 1), .next(2, 2), .next(3, 3)])
        let observer = TestObserver(source.signal.take(2), clock: scheduler)
        let none = TestObserver(source.signal.take(0), clock: scheduler)
        scheduler.run()
        #expect(observer.recorded == [.next(1, 1), .next(2, 2), .completed(2)])
        #expect(none.recorded == [.completed(0)])
        #expect(source.subscriptions == [SubscriptionSpan(0, 2)])
    }

    @Test("O10: take passes an early error or completion through")
    func takeEarlyEnd() {
        let scheduler = TestScheduler()
        let short = scheduler.createColdSignal([.next(1, 1), .error(2, "e")])
        let observer = TestObserver(short.signal.take(5), clock: scheduler)
        scheduler.run()
        #expect(observer.recorded == [.next(1, 1), .error(2, "e")])
    }

    @Test("O11: takeUntil completes when the trigger sends or completes, disposing both")
    func takeUntil() {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal([.next(1, 1), .next(3, 3)])
        let trigger = scheduler.createColdSignal([.next(2, ())])
        let observer = TestObserver(source.signal.takeUntil(trigger.signal), clock: scheduler)
        let completing = scheduler.createColdSignal([.completed(2)] as [Recorded<Void>])
        let byCompletion = TestObserver(source.signal.takeUntil(completing.signal), clock: scheduler)
        scheduler.run()
        #expect(observer.recorded == [.next(1, 1), .completed(2)])
        #expect(byCompletion.recorded == [.next(1, 1), .completed(2)])
        #expect(source.subscriptions == [SubscriptionSpan(0, 2), SubscriptionSpan(0, 2)])
        #expect(trigger.subscriptions == [SubscriptionSpan(0, 2)])
    }

    @Test("O11: takeUntil ignores the trigger's errors and ends the trigger when the source ends")
    func takeUntilTriggerError() {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal([.next(1, 1), .next(3, 3), .completed(4)])
        let failing = scheduler.createColdSignal([.error(2, "ignored")] as [Recorded<Int>])
        let endless = scheduler.createColdSignal([.next(9, 9)] as [Recorded<Int>])
        let observer = TestObserver(source.signal.takeUntil(failing.signal), clock: scheduler)
        let other = TestObserver(source.signal.takeUntil(endless.signal), clock: scheduler)
        scheduler.run()
        #expect(observer.recorded == [.next(1, 1), .next(3, 3), .completed(4)])
        #expect(other.recorded == observer.recorded)
        #expect(endless.subscriptions == [SubscriptionSpan(0, 4)])
    }

    @Test("O11: takeUntil a lifetime ends the subscription when the owner goes away")
    func takeUntilLifetime() {
        let subject = Subject<Int>()
        var made: (lifetime: Lifetime, token: Lifetime.Token)? = Lifetime.make()
        let observer = TestObserver(subject.takeUntil(made!.lifetime.ended))
        subject.sendNext(1)
        made = nil
        subject.sendNext(2)
        #expect(observer.recordedEvents == [.next(1), .completed])
    }

    @Test("O12: takeLast sends the last values at completion")
    func takeLast() {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal([.next(1, 1), .next(2, 2), .next(3, 3), .completed(4)])
        let observer = TestObserver(source.signal.takeLast(2), clock: scheduler)
        let failing = scheduler.createColdSignal([.next(1, 1), .error(2, "e")])
        let failed = TestObserver(failing.signal.takeLast(1), clock: scheduler)
        scheduler.run()
        #expect(observer.recorded == [.next(4, 2), .next(4, 3), .completed(4)])
        #expect(failed.recorded == [.error(2, "e")])
    }

    @Test("O13: skip drops the first values")
    func skip() {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal([.next(1, 1), .next(2, 2), .next(3, 3), .completed(4)])
        let observer = TestObserver(source.signal.skip(2), clock: scheduler)
        scheduler.run()
        #expect(observer.recorded == [.next(3, 3), .completed(4)])
    }

    @Test("O14: takeWhile stops at the first failing value; skipWhile starts there")
    func whileOperators() {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal([.next(1, 1), .next(2, 5), .next(3, 2), .completed(4)])
        let taking = TestObserver(source.signal.takeWhile { $0 < 3 }, clock: scheduler)
        let skipping = TestObserver(source.signal.skipWhile { $0 < 3 }, clock: scheduler)
        scheduler.run()
        #expect(taking.recorded == [.next(1, 1), .completed(2)])
        #expect(skipping.recorded == [.next(2, 5), .next(3, 2), .completed(4)])
        #expect(source.subscriptions.first == SubscriptionSpan(0, 2))
    }

    @Test("O8: startWith sends its value first")
    func startWith() {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal([.next(1, "b"), .completed(2)])
        let observer = TestObserver(source.signal.startWith("a"), clock: scheduler)
        scheduler.run()
        #expect(observer.recorded == [.next(0, "a"), .next(1, "b"), .completed(2)])
    }

    @Test("O9: then ignores values and continues with the next signal at completion")
    func then() {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal([.next(1, 1), .completed(2)])
        var made = 0
        let observer = TestObserver(
            source.signal.then { () -> Signal<String> in
                made += 1
                return scheduler.createColdSignal([.next(1, "next"), .completed(2)]).signal
            }, clock: scheduler)
        #expect(made == 0)
        scheduler.run()
        #expect(observer.recorded == [.next(3, "next"), .completed(4)])
        #expect(made == 1)

        let failing = scheduler.createColdSignal([.error(1, "e")] as [Recorded<Int>])
        let failed = TestObserver(failing.signal.then { Signal<Int>.just(1) })
        scheduler.run()
        #expect(failed.recordedEvents == [.error("e")])
    }
}
