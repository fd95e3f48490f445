import Dispatch
import SignalScopeTools
import SignalScopeTesting
import Testing

@Suite("Subscription lifetime and memory", .timeLimit(.minutes(10)))
struct SubscriptionLifetimeTests {
    @Test("S2: a signal nobody references still delivers to a live subscription")
    func unreferencedSignalDelivers() async {
        weak var weakSignal: Signal<String>?
        let received = Log<String>()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            do {
                let request = Signal<String> { subscriber in
                    DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) {
                        subscriber.sendNext("payload")
                        subscriber.sendCompleted()
                    }
                    return nil
                }
                weakSignal = request
                request.subscribe(next: { received.append($0) }, completed: { done.resume() })
            }
            #expect(weakSignal != nil, "the live subscription keeps its signal alive")
        }
        #expect(received.items == ["payload"])
        // The delivering thread lets go of the signal as the completed closure returns,
        // which may be just after this task resumed (it was, once, under ThreadSanitizer).
        var waited = 0
        while weakSignal != nil, waited < 500 {
            try? await Task.sleep(for: .milliseconds(10))
            waited += 1
        }
        #expect(weakSignal == nil, "the signal is released once its only subscription ends")
    }

    @Test("S2: a signal does not keep its subscribers")
    func signalDoesNotRetainSubscribers() {
        let signal = Signal<Int>.never()
        let probe = CaptureProbe.attach { capture in signal.subscribeNext { _ in _ = capture } }.probe
        #expect(probe.isReleased)
    }

    @Test("S4: completion releases the observer's closures and their captures")
    func completionReleasesCaptures() {
        let subject = Subject<Int>()
        let (disposable, probe) = CaptureProbe.attach { capture in subject.subscribeNext { _ in _ = capture } }
        #expect(!probe.isReleased)
        subject.sendCompleted()
        #expect(probe.isReleased)
        #expect(disposable.isDisposed)
    }

    @Test("S4: an error releases the observer's closures and their captures")
    func errorReleasesCaptures() {
        let subject = Subject<Int>()
        let probe = CaptureProbe.attach { capture in subject.subscribe(error: { _ in _ = capture }) }.probe
        subject.sendError(TestError())
        #expect(probe.isReleased)
    }

    @Test("S4: resources are disposed before the observer hears of completion")
    func resourcesDisposedBeforeTerminalClosure() {
        let order = Log<String>()
        let subject = Subject<Int>()
        let forwarded = Signal<Int> { subscriber in
            subscriber.add(Disposable { order.append("cleanup") })
            return subject.subscribe(subscriber)
        }
        forwarded.subscribe(completed: { order.append("completed") })
        subject.sendCompleted()
        #expect(order.items == ["cleanup", "completed"])
    }

    @Test("S4: completion breaks a cycle through the observer (self.disposable = signal.subscribe { self })")
    func completionBreaksSelfCycle() {
        final class Screen {
            var disposable: Disposable?
            var title = ""
        }
        weak var weakScreen: Screen?
        let subject = Subject<String>()
        do {
            let screen = Screen()
            weakScreen = screen
            screen.disposable = subject.subscribeNext { screen.title = $0 }
        }
        subject.sendNext("hello")
        #expect(weakScreen?.title == "hello")
        subject.sendCompleted()
        #expect(weakScreen == nil)
    }

    @Test("S5: dispose stops delivery to that subscriber only, without calling completed")
    func disposeStopsOneSubscriber() {
        let subject = Subject<Int>()
        let first = TestObserver(subject)
        let second = TestObserver(subject)
        subject.sendNext(1)
        first.disposable.dispose()
        subject.sendNext(2)
        subject.sendCompleted()
        #expect(first.recordedEvents == [.next(1)])
        #expect(second.recordedEvents == [.next(1), .next(2), .completed])
    }

    @Test("S5: dispose releases the observer's captures even when the source still holds the subscriber")
    func disposeReleasesCapturesHeldBySource() {
        var stash: [Subscriber<Int>] = []
        let signal = Signal<Int> { subscriber in
            stash.append(subscriber)  // an uncancellable request keeps the subscriber
            return nil
        }
        let (disposable, probe) = CaptureProbe.attach { capture in signal.subscribeNext { _ in _ = capture } }
        #expect(!probe.isReleased)
        disposable.dispose()
        #expect(probe.isReleased)
        stash[0].sendNext(1)
        #expect(stash[0].isDisposed)
    }

    @Test("S5: a subscriber may dispose itself from inside its own closure")
    func disposeFromInsideClosure() {
        let subject = Subject<Int>()
        let received = Log<Int>()
        var disposable: Disposable?
        disposable = subject.subscribeNext { value in
            received.append(value)
            disposable?.dispose()
        }
        subject.sendNext(1)
        subject.sendNext(2)
        #expect(received.items == [1])
        #expect(disposable?.isDisposed == true)
    }

    @Test("S7: holding the disposable of a live subscription does not keep its observer alive")
    func disposableDoesNotRetainObserver() {
        let (disposable, probe) = CaptureProbe.attach { capture in
            Signal<Int>.never().subscribeNext { _ in _ = capture }
        }
        #expect(probe.isReleased, "nothing but the disposable refers to the subscription")
        #expect(!disposable.isDisposed)
        disposable.dispose()
    }

    @Test("S7: a subscription nothing references is freed with its captures, even through forwarding")
    func unreferencedSubscriptionIsFreed() {
        let relay = Signal<Int> { subscriber in Signal<Int>.never().subscribe(subscriber) }
        let probe = CaptureProbe.attach { capture in relay.subscribeNext { _ in _ = capture } }.probe
        #expect(probe.isReleased)
    }
}
