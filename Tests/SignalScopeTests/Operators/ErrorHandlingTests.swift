import SignalScopeTools
import SignalScopeTesting
import Testing

@Suite("Operators: catching and retrying", .timeLimit(.minutes(10)))
struct ErrorHandlingTests {
    @Test("O27: catch switches to the handler's signal on error; catchTo to a fixed one")
    func catchOperators() {
        let scheduler = TestScheduler()
        let failing = scheduler.createColdSignal([.next(1, 1), .error(2, "expired")])
        var handled: [String] = []
        let recovered = TestObserver(
            failing.signal.catch { error in
                handled.append("\(error)")
                return scheduler.createColdSignal([.next(1, 99), .completed(2)]).signal
            }, clock: scheduler)
        let fallback = TestObserver(failing.signal.catchTo(.just(0)), clock: scheduler)
        scheduler.run()
        #expect(recovered.recorded == [.next(1, 1), .next(3, 99), .completed(4)])
        #expect(handled == ["expired"])
        #expect(fallback.recorded == [.next(1, 1), .next(2, 0), .completed(2)])
    }

    @Test("O27: catch passes values and completion through untouched, and disposes the recovery")
    func catchPassThroughAndDispose() {
        let scheduler = TestScheduler()
        let fine = scheduler.createColdSignal([.next(1, 1), .completed(2)])
        let observer = TestObserver(fine.signal.catch { _ in .just(-1) }, clock: scheduler)
        let failing = scheduler.createColdSignal([.error(1, "x")] as [Recorded<Int>])
        let recovery = scheduler.createColdSignal([.next(5, 5)] as [Recorded<Int>])
        let disposed = TestObserver(failing.signal.catchTo(recovery.signal), clock: scheduler)
        scheduler.advance(by: 3)
        disposed.disposable.dispose()
        scheduler.run()
        #expect(observer.recorded == [.next(1, 1), .completed(2)])
        #expect(recovery.subscriptions == [SubscriptionSpan(1, 3)])
    }

    @Test("O28: retry(n) subscribes again after each error, up to n times")
    func retryCount() {
        let scheduler = TestScheduler()
        let flaky = scheduler.createColdSignal([.next(1, "try"), .error(2, "flaky")])
        let observer = TestObserver(flaky.signal.retry(2), clock: scheduler)
        scheduler.run()
        #expect(observer.recorded == [
            .next(1, "try"), .next(3, "try"), .next(5, "try"), .error(6, "flaky"),
        ])
        #expect(flaky.subscriptions == [SubscriptionSpan(0, 2), SubscriptionSpan(2, 4), SubscriptionSpan(4, 6)])
    }

    @Test("O28: retry() retries until success, without recursion for synchronous failures")
    func retryForever() {
        var attempts = 0
        let eventually = Signal<Int> { subscriber in
            attempts += 1
            if attempts < 10_000 {
                subscriber.sendError(TestError())
            } else {
                subscriber.sendNext(attempts)
                subscriber.sendCompleted()
            }
            return nil
        }
        let observer = TestObserver(eventually.retry())
        #expect(observer.recordedEvents == [.next(10_000), .completed])
    }

    @Test("O28: retry(0) sets no limit, as RAC 2's retry:0: it retries until the signal completes")
    func retryZeroIsUnlimited() {
        let scheduler = TestScheduler()
        var attempts = 0
        let eventually = Signal<Int> { subscriber in
            attempts += 1
            if attempts <= 5 {
                subscriber.sendError(TestError())
            } else {
                subscriber.sendNext(attempts)
                subscriber.sendCompleted()
            }
            return nil
        }
        #expect(TestObserver(eventually.retry(0)).recordedEvents == [.next(6), .completed])
        let flaky = scheduler.createColdSignal([.error(1, "flaky")] as [Recorded<Int>])
        let observer = TestObserver(flaky.signal.retry(0), clock: scheduler)
        scheduler.advance(by: 10)
        observer.disposable.dispose()
        #expect(observer.recorded.isEmpty, "no error ever reaches the subscriber")
        // One attempt per failure, the last one disposed as soon as it began.
        let failedAttempts: [SubscriptionSpan] = (0..<10).map { SubscriptionSpan(Double($0), Double($0 + 1)) }
        #expect(flaky.subscriptions == failedAttempts + [SubscriptionSpan(10, 10)])
    }

    @Test("O28: disposing a retrying signal disposes the current attempt")
    func retryDispose() {
        let scheduler = TestScheduler()
        let slow = scheduler.createColdSignal([.error(2, "e")] as [Recorded<Int>])
        let observer = TestObserver(slow.signal.retry(), clock: scheduler)
        scheduler.advance(by: 3)
        observer.disposable.dispose()
        scheduler.advance(by: 10)
        #expect(slow.subscriptions == [SubscriptionSpan(0, 2), SubscriptionSpan(2, 3)])
    }
}
