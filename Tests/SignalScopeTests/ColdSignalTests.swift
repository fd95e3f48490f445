import SignalScopeTools
import SignalScopeTesting
import Testing

@Suite("Cold signals", .timeLimit(.minutes(10)))
struct ColdSignalTests {
    @Test("S1: every subscription runs the creation block again")
    func creationBlockRunsPerSubscription() {
        let requests = Counter()
        let request = Signal<String> { subscriber in
            requests.increment()
            subscriber.sendNext("response \(requests.count)")
            subscriber.sendCompleted()
            return nil
        }
        let first = TestObserver(request)
        let second = TestObserver(request)
        #expect(requests.count == 2)
        #expect(first.values == ["response 1"])
        #expect(second.values == ["response 2"])
    }

    @Test("S1: creating a signal runs nothing until it is subscribed")
    func creationIsLazy() {
        let requests = Counter()
        _ = Signal<Int> { _ in
            requests.increment()
            return nil
        }
        #expect(requests.count == 0)
    }

    @Test("S9: just sends its value then completes, for each subscriber")
    func just() {
        let signal = Signal.just(7)
        #expect(TestObserver(signal).recordedEvents == [.next(7), .completed])
        #expect(TestObserver(signal).recordedEvents == [.next(7), .completed])
    }

    @Test("S9: empty completes, never sends nothing, error fails")
    func emptyNeverError() {
        #expect(TestObserver(Signal<Int>.empty()).recordedEvents == [.completed])
        let never = TestObserver(Signal<Int>.never())
        #expect(never.recordedEvents.isEmpty)
        #expect(TestObserver(Signal<Int>.error(TestError(code: 3))).recordedEvents == [.error("TestError(3)")])
        never.disposable.dispose()
    }

    @Test("S10: the creation block runs synchronously inside subscribe, on the same thread")
    func creationBlockRunsSynchronously() {
        let order = Log<String>()
        let signal = Signal<Int> { subscriber in
            order.append("block")
            subscriber.sendNext(1)
            return nil
        }
        order.append("before")
        signal.subscribeNext { _ in order.append("next") }
        order.append("after")
        #expect(order.items == ["before", "block", "next", "after"])
    }

    @Test("S6: the creation block's disposable runs once when the subscription completes")
    func cleanupOnCompletion() {
        let cleanups = Counter()
        let subject = Subject<Int>()
        let signal = Signal<Int> { subscriber in
            let forwarding = subject.subscribe(subscriber)
            return Disposable {
                cleanups.increment()
                forwarding.dispose()
            }
        }
        let disposable = signal.subscribe()
        #expect(cleanups.count == 0)
        subject.sendCompleted()
        #expect(cleanups.count == 1)
        disposable.dispose()
        #expect(cleanups.count == 1)
    }

    @Test("S6: the creation block's disposable runs once when the subscription is disposed")
    func cleanupOnDispose() {
        let cleanups = Counter()
        let signal = Signal<Int> { _ in Disposable { cleanups.increment() } }
        let disposable = signal.subscribe()
        disposable.dispose()
        disposable.dispose()
        #expect(cleanups.count == 1)
    }

    @Test("S6: a block that terminates before returning has its disposable run at once")
    func cleanupAfterSynchronousTermination() {
        let cleanups = Counter()
        let signal = Signal<Int> { subscriber in
            subscriber.sendCompleted()
            return Disposable { cleanups.increment() }
        }
        signal.subscribe()
        #expect(cleanups.count == 1)
    }
}
