import SignalScopeTools
import SignalScopeTesting
import Testing

@Suite("Operators: multicasting", .timeLimit(.minutes(10)))
struct MulticastTests {
    @Test("O30: publish shares one subscription among subscribers, from connect on")
    func publish() {
        let requests = Counter()
        let source = Subject<Int>()
        let request = Signal<Int> { subscriber in
            requests.increment()
            return source.subscribe(subscriber)
        }
        let connection = request.publish()
        let first = TestObserver(connection.signal)
        let second = TestObserver(connection.signal)
        source.sendNext(0)
        #expect(requests.count == 0)
        let disposable = connection.connect()
        #expect(connection.connect() === disposable)
        source.sendNext(1)
        disposable.dispose()
        source.sendNext(2)
        #expect(requests.count == 1)
        #expect(first.values == [1])
        #expect(second.values == [1])
    }

    @Test("O30: multicast into a replay subject replays to late subscribers")
    func multicastReplay() {
        let connection = Signal.just(5).multicast(ReplaySubject())
        connection.connect()
        #expect(TestObserver(connection.signal).recordedEvents == [.next(5), .completed])
    }

    @Test("O31: autoconnect connects on the first subscriber and disconnects after the last")
    func autoconnect() {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal([.next(1, 1), .next(2, 2), .next(3, 3), .next(4, 4)])
        let shared = source.signal.publish().autoconnect()
        let first = TestObserver(shared, clock: scheduler)
        scheduler.advance(by: 1)
        let second = TestObserver(shared, clock: scheduler)
        scheduler.advance(by: 1)
        first.disposable.dispose()
        scheduler.advance(by: 1)
        second.disposable.dispose()
        scheduler.run()
        #expect(first.values == [1, 2])
        #expect(second.values == [2, 3])
        #expect(source.subscriptions == [SubscriptionSpan(0, 3)])
    }

    @Test("O32: replay subscribes once, at once, and replays everything")
    func replay() {
        let requests = Counter()
        let request = Signal<String> { subscriber in
            requests.increment()
            subscriber.sendNext("a")
            subscriber.sendNext("b")
            subscriber.sendCompleted()
            return nil
        }
        let shared = request.replay()
        #expect(requests.count == 1)
        #expect(TestObserver(shared).recordedEvents == [.next("a"), .next("b"), .completed])
        #expect(TestObserver(shared).recordedEvents == [.next("a"), .next("b"), .completed])
        #expect(TestObserver(request.replayLast()).recordedEvents == [.next("b"), .completed])
        #expect(requests.count == 2)
    }

    @Test("O32: replayLazily subscribes only when first subscribed, then only once")
    func replayLazily() {
        let requests = Counter()
        let request = Signal<Int> { subscriber in
            requests.increment()
            subscriber.sendNext(requests.count)
            subscriber.sendCompleted()
            return nil
        }
        let lazy = request.replayLazily()
        #expect(requests.count == 0)
        #expect(TestObserver(lazy).values == [1])
        #expect(TestObserver(lazy).values == [1])
        #expect(requests.count == 1)
    }
}
