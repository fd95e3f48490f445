import SignalScopeTools
import SignalScopeTesting
import Testing

@Suite("Operators: map and filter", .timeLimit(.minutes(10)))
struct MapFilterTests {
    @Test("O1: map transforms values and passes completion through; mapReplace replaces them")
    func map() {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal([.next(1, 1), .next(2, 2), .completed(3)])
        let mapped = TestObserver(source.signal.map { $0 * 10 }, clock: scheduler)
        let replaced = TestObserver(source.signal.mapReplace("x"), clock: scheduler)
        scheduler.run()
        #expect(mapped.recorded == [.next(1, 10), .next(2, 20), .completed(3)])
        #expect(replaced.recorded == [.next(1, "x"), .next(2, "x"), .completed(3)])
    }

    @Test("O1: map passes errors through")
    func mapError() {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal([.next(1, 1), .error(2, "boom")])
        let observer = TestObserver(source.signal.map { $0 + 1 }, clock: scheduler)
        scheduler.run()
        #expect(observer.recorded == [.next(1, 2), .error(2, "boom")])
    }

    @Test("O1: disposing downstream disposes the source subscription and releases the transform")
    func mapDisposesUpstream() {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal([.next(1, 1), .next(5, 5)] as [Recorded<Int>])
        let (observer, probe) = CaptureProbe.attach { capture in TestObserver(source.signal.map { _ = capture; return $0 }, clock: scheduler) }
        scheduler.advance(by: 2)
        #expect(!probe.isReleased)
        observer.disposable.dispose()
        scheduler.run()
        #expect(observer.values == [1])
        #expect(source.subscriptions == [SubscriptionSpan(0, 2)])
        #expect(probe.isReleased, "nothing holds the stage once its only subscription ended")
    }

    @Test("O2: filter keeps matching values; ignore drops one value; ignoreValues keeps only the end")
    func filters() {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal([.next(1, 1), .next(2, 2), .next(3, 3), .completed(4)])
        let even = TestObserver(source.signal.filter { $0 % 2 == 0 }, clock: scheduler)
        let notTwo = TestObserver(source.signal.ignore(2), clock: scheduler)
        let none = TestObserver(source.signal.ignoreValues(), clock: scheduler)
        scheduler.run()
        #expect(even.recorded == [.next(2, 2), .completed(4)])
        #expect(notTwo.recorded == [.next(1, 1), .next(3, 3), .completed(4)])
        #expect(none.recorded == [.completed(4)])
    }

    @Test("O2: filter passes errors through and disposes upstream when disposed")
    func filterErrorAndDispose() {
        let scheduler = TestScheduler()
        let failing = scheduler.createColdSignal([.next(1, 1), .error(2, "bad")] as [Recorded<Int>])
        let failed = TestObserver(failing.signal.filter { _ in true }, clock: scheduler)
        let endless = scheduler.createColdSignal([.next(1, 1)] as [Recorded<Int>])
        let disposed = TestObserver(endless.signal.ignoreValues(), clock: scheduler)
        scheduler.advance(by: 3)
        disposed.disposable.dispose()
        #expect(failed.recorded == [.next(1, 1), .error(2, "bad")])
        #expect(endless.subscriptions == [SubscriptionSpan(0, 3)])
    }
}
