import Dispatch
import SignalScope
import SignalScopeTesting
import Testing

@Suite("Subscription lifetime and memory")
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
        #expect(weakSignal == nil, "the signal is released once its only subscription ends")
    }

    @Test("S2: a signal does not keep its subscribers")
    func signalDoesNotRetainSubscribers() {
        weak var weakCapture: Capture?
        let signal = Signal<Int>.never
        do {
            let capture = Capture()
            weakCapture = capture
            signal.subscribeNext { _ in _ = capture }
        }
        #expect(weakCapture == nil)
    }

    @Test("S4: completion releases the observer's closures and their captures")
    func completionReleasesCaptures() {
        weak var weakCapture: Capture?
        let subject = Subject<Int>()
        let disposable: Disposable
        do {
            let capture = Capture()
            weakCapture = capture
            disposable = subject.subscribeNext { _ in _ = capture }
        }
        #expect(weakCapture != nil)
        subject.sendCompleted()
        #expect(weakCapture == nil)
        #expect(disposable.isDisposed)
    }

    @Test("S4: an error releases the observer's closures and their captures")
    func errorReleasesCaptures() {
        weak var weakCapture: Capture?
        let subject = Subject<Int>()
        do {
            let capture = Capture()
            weakCapture = capture
            subject.subscribe(error: { _ in _ = capture })
        }
        subject.sendError(TestError())
        #expect(weakCapture == nil)
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
        weak var weakCapture: Capture?
        var stash: [Subscriber<Int>] = []
        let signal = Signal<Int> { subscriber in
            stash.append(subscriber)  // an uncancellable request keeps the subscriber
            return nil
        }
        let disposable: Disposable
        do {
            let capture = Capture()
            weakCapture = capture
            disposable = signal.subscribeNext { _ in _ = capture }
        }
        #expect(weakCapture != nil)
        disposable.dispose()
        #expect(weakCapture == nil)
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

    @Test("S7: holding the disposable does not keep the observer's captures alive after the end")
    func disposableDoesNotRetainObserver() {
        weak var weakCapture: Capture?
        let subject = Subject<Int>()
        let disposable: Disposable
        do {
            let capture = Capture()
            weakCapture = capture
            disposable = subject.subscribeNext { _ in _ = capture }
        }
        subject.sendCompleted()
        #expect(weakCapture == nil)
        #expect(disposable.isDisposed)
    }

    @Test("S7: a subscription nothing references is freed with its captures, even through forwarding")
    func unreferencedSubscriptionIsFreed() {
        weak var weakCapture: Capture?
        let relay = Signal<Int> { subscriber in Signal<Int>.never.subscribe(subscriber) }
        do {
            let capture = Capture()
            weakCapture = capture
            relay.subscribeNext { _ in _ = capture }
        }
        #expect(weakCapture == nil)
    }
}
