import Dispatch
import Foundation
import SignalScopeTools
import SignalScopeTesting
import Testing

@Suite("Operators: time and scheduling", .timeLimit(.minutes(10)))
struct TimeTests {
    @Test("O21: interval sends the scheduler's date every interval until disposed")
    func interval() {
        let scheduler = TestScheduler()
        let start = scheduler.now
        let ticks = TestObserver(Signal.interval(1, on: scheduler), clock: scheduler)
        scheduler.advance(by: 3.5)
        ticks.disposable.dispose()
        scheduler.run()
        #expect(ticks.recorded.map(\.time) == [1, 2, 3])
        #expect(ticks.values == [1, 2, 3].map { start.addingTimeInterval($0) })
    }

    @Test("O22: delay shifts values and completion; errors pass at once")
    func delay() {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal([.next(1, 1), .next(2, 2), .completed(3)])
        let observer = TestObserver(source.signal.delay(2, on: scheduler), clock: scheduler)
        let failing = scheduler.createColdSignal([.next(1, 1), .error(2, "now")])
        let failed = TestObserver(failing.signal.delay(5, on: scheduler), clock: scheduler)
        scheduler.run()
        #expect(observer.recorded == [.next(3, 1), .next(4, 2), .completed(5)])
        #expect(failed.recorded == [.error(2, "now")])
    }

    @Test("O22: disposing a delayed signal cancels what is still waiting")
    func delayDispose() {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal([.next(1, 1), .next(2, 2)])
        let observer = TestObserver(source.signal.delay(2, on: scheduler), clock: scheduler)
        scheduler.advance(by: 3.5)
        observer.disposable.dispose()
        scheduler.run()
        #expect(observer.recorded == [.next(3, 1)])
        #expect(source.subscriptions == [SubscriptionSpan(0, 3.5)])
    }

    @Test("O23: throttle sends a value only after a quiet interval, and flushes it at completion")
    func throttle() {
        let scheduler = TestScheduler()
        let typing = scheduler.createColdSignal([
            .next(0, "s"), .next(0.2, "sw"), .next(0.4, "swi"), .next(2, "swift"), .next(2.1, "swifty"), .completed(2.3),
        ])
        let observer = TestObserver(typing.signal.throttle(1, on: scheduler), clock: scheduler)
        scheduler.run()
        #expect(observer.recorded == [.next(1.4, "swi"), .next(2.3, "swifty"), .completed(2.3)])
    }

    @Test("O23: throttle drops the waiting value on error")
    func throttleError() {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal([.next(0, 1), .error(0.5, "e")])
        let observer = TestObserver(source.signal.throttle(1, on: scheduler), clock: scheduler)
        scheduler.run()
        #expect(observer.recorded == [.error(0.5, "e")])
    }

    @Test("O24: timeout fails a signal that has not terminated in time and disposes it")
    func timeout() {
        let scheduler = TestScheduler()
        let slow = scheduler.createColdSignal([.next(1, 1), .next(2, 2), .completed(10)])
        let observer = TestObserver(slow.signal.timeout(3, on: scheduler), clock: scheduler)
        let fast = scheduler.createColdSignal([.next(1, 1), .completed(2)])
        let inTime = TestObserver(fast.signal.timeout(3, on: scheduler), clock: scheduler)
        scheduler.run()
        #expect(observer.recorded == [.next(1, 1), .next(2, 2), .error(3, "the signal did not terminate before its timeout")])
        #expect(slow.subscriptions == [SubscriptionSpan(0, 3)])
        #expect(inTime.recorded == [.next(1, 1), .completed(2)])
        #expect(observer.error as? SignalError == .timedOut)
    }

    @Test("O25: deliver(on:) sends every event on the scheduler, in order")
    func deliverOn() {
        let scheduler = TestScheduler()
        let subject = Subject<Int>()
        let observer = TestObserver(subject.deliver(on: scheduler), clock: scheduler)
        subject.sendNext(1)
        subject.sendNext(2)
        subject.sendCompleted()
        #expect(observer.recorded.isEmpty)
        scheduler.advance(by: 0)
        #expect(observer.recordedEvents == [.next(1), .next(2), .completed])
    }

    @Test("O25: deliver(on:) a queue runs the observer on that queue")
    func deliverOnQueue() async {
        let queue = DispatchQueue(label: "deliver.target")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let onQueue = Log<Bool>()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Signal.just(1).deliver(on: QueueScheduler(queue: queue)).subscribe(
                next: { _ in onQueue.append(DispatchQueue.getSpecific(key: key) == true) },
                completed: { done.resume() })
        }
        #expect(onQueue.items == [true])
    }

    @Test("O26: subscribe(on:) runs the creation block on the scheduler; disposing first cancels it")
    func subscribeOn() {
        let scheduler = TestScheduler()
        let subscriptions = Counter()
        let signal = Signal<Int> { subscriber in
            subscriptions.increment()
            subscriber.sendNext(1)
            return nil
        }
        let observer = TestObserver(signal.subscribe(on: scheduler))
        let cancelled = TestObserver(signal.subscribe(on: scheduler))
        #expect(subscriptions.count == 0)
        cancelled.disposable.dispose()
        scheduler.advance(by: 0)
        #expect(subscriptions.count == 1)
        #expect(observer.values == [1])
        #expect(cancelled.values.isEmpty)
    }
}
