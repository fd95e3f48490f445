import SignalScopeTools
import SignalScopeTesting
import Testing

@Suite("Forwarding into subscribers", .timeLimit(.minutes(10)))
struct ForwardingTests {
    final class Collector: SubscriberProtocol {
        var events: [String] = []
        var received: Disposable?
        func sendNext(_ value: Int) { events.append("next(\(value))") }
        func sendError(_ error: any Error) { events.append("error") }
        func sendCompleted() { events.append("completed") }
        func didSubscribe(with disposable: Disposable) {
            events.append("didSubscribe")
            received = disposable
        }
    }

    @Test("S8: subscribe(target) forwards every event, after handing over the disposable")
    func forwardsIntoCustomSubscriber() {
        let collector = Collector()
        let disposable = Signal.just(5).subscribe(collector)
        #expect(collector.events == ["didSubscribe", "next(5)", "completed"])
        #expect(collector.received === disposable)
    }

    @Test("S8: forwarding into a Subscriber ties the inner subscription to the outer one")
    func forwardingIntoSubscriberIsDisposedWithIt() {
        let source = Subject<Int>()
        let cleanups = Counter()
        let inner = Signal<Int> { subscriber in
            source.subscribe(subscriber)
            return Disposable { cleanups.increment() }
        }
        let relay = Signal<Int> { subscriber in
            inner.subscribe(subscriber)
            return nil
        }
        let observer = TestObserver(relay)
        source.sendNext(1)
        observer.disposable.dispose()
        source.sendNext(2)
        #expect(observer.values == [1])
        #expect(cleanups.count == 1)
    }

    @Test("J7: a subject disposes the subscriptions forwarding into it when it terminates")
    func subjectDisposesForwardingOnTerminal() {
        let upstream = Subject<Int>()
        let relay = Subject<Int>()
        let forwarding = upstream.subscribe(relay)
        let observer = TestObserver(relay)
        upstream.sendNext(1)
        relay.sendCompleted()
        #expect(forwarding.isDisposed)
        upstream.sendNext(2)
        #expect(observer.recordedEvents == [.next(1), .completed])
    }
}
