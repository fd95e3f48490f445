import SignalScopeTools
import SignalScopeTesting
import Testing

@Suite("Operators: zip and combineLatest", .timeLimit(.minutes(10)))
struct CombiningTests {
    @Test("O19: zip pairs values in order and completes once a finished input is used up")
    func zip() {
        let scheduler = TestScheduler()
        let numbers = scheduler.createColdSignal([.next(1, 1), .next(2, 2), .next(3, 3), .completed(4)])
        let letters = scheduler.createColdSignal([.next(2, "a"), .next(5, "b"), .completed(6)])
        let observer = TestObserver(Signal.zip(numbers.signal, letters.signal).map { "\($0)\($1)" }, clock: scheduler)
        scheduler.run()
        #expect(observer.recorded == [.next(2, "1a"), .next(5, "2b"), .completed(6)])
    }

    @Test("O19: zip completes as soon as a completed input has nothing left to pair, disposing the rest")
    func zipEarlyCompletion() {
        let scheduler = TestScheduler()
        let short = scheduler.createColdSignal([.next(1, 1), .completed(2)])
        let long = scheduler.createColdSignal([.next(3, 10), .next(4, 20)])
        let observer = TestObserver(short.signal.zip(with: long.signal).map { $0 + $1 }, clock: scheduler)
        scheduler.run()
        #expect(observer.recorded == [.next(3, 11), .completed(3)])
        #expect(long.subscriptions == [SubscriptionSpan(0, 3)])
    }

    @Test("O19: zip of an array combines into arrays; an error fails it")
    func zipArray() {
        let scheduler = TestScheduler()
        let a = scheduler.createColdSignal([.next(1, 1), .next(2, 2)])
        let b = scheduler.createColdSignal([.next(1, 10), .error(3, "b failed")])
        let observer = TestObserver(Signal.zip([a.signal, b.signal]), clock: scheduler)
        scheduler.run()
        #expect(observer.recorded == [.next(1, [1, 10]), .error(3, "b failed")])
        #expect(a.subscriptions == [SubscriptionSpan(0, 3)])
        #expect(TestObserver(Signal<[Int]>.zip([Signal<Int>]())).recordedEvents == [.completed])
    }

    @Test("O20: combineLatest sends the latest pair whenever either input sends, once both have")
    func combineLatest() {
        let scheduler = TestScheduler()
        let a = scheduler.createColdSignal([.next(1, 1), .next(3, 2), .completed(4)])
        let b = scheduler.createColdSignal([.next(2, "x"), .next(5, "y"), .completed(6)])
        let observer = TestObserver(Signal.combineLatest(a.signal, b.signal).map { "\($0)\($1)" }, clock: scheduler)
        scheduler.run()
        #expect(observer.recorded == [.next(2, "1x"), .next(3, "2x"), .next(5, "2y"), .completed(6)])
    }

    @Test("O20: combineLatest of an array; reduce with map; an error fails it")
    func combineLatestArray() {
        let scheduler = TestScheduler()
        let a = scheduler.createColdSignal([.next(1, true), .next(3, false)])
        let b = scheduler.createColdSignal([.next(2, true), .error(4, "gone")])
        let observer = TestObserver(Signal.combineLatest([a.signal, b.signal]).and(), clock: scheduler)
        scheduler.run()
        #expect(observer.recorded == [.next(2, true), .next(3, false), .error(4, "gone")])
        #expect(a.subscriptions == [SubscriptionSpan(0, 4)])
    }
}
