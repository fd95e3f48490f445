import Dispatch
import SignalScopeTools
import SignalScopeTesting
import Synchronization
import Testing

@Suite("Concurrency", .timeLimit(.minutes(10)))
struct ConcurrencyTests {
    /// Fails the test if two calls of `body` ever overlap.
    final class OverlapDetector: Sendable {
        private let inside = Atomic<Bool>(false)
        private let overlaps = Atomic<Int>(0)
        func run(_ body: () -> Void) {
            if inside.exchange(true, ordering: .acquiring) { overlaps.add(1, ordering: .relaxed) }
            body()
            inside.store(false, ordering: .releasing)
        }
        var overlapCount: Int { overlaps.load(ordering: .relaxed) }
    }

    @Test("C1: sends from many threads to one subject reach each subscriber serially, each exactly once")
    func stressSubject() {
        let senders = 4
        let perSender = 5_000
        let subject = Subject<(sender: Int, index: Int)>()
        let detector = OverlapDetector()
        let lastIndex = Mutex<[Int]>(Array(repeating: -1, count: senders))
        let outOfOrder = Counter()
        let received = Counter()
        let completions = Counter()
        let afterCompletion = Counter()
        let completed = Atomic<Bool>(false)
        subject.subscribe(
            next: { value in
                detector.run {
                    if completed.load(ordering: .relaxed) { afterCompletion.increment() }
                    received.increment()
                    lastIndex.withLock { last in
                        if value.index <= last[value.sender] { outOfOrder.increment() }
                        last[value.sender] = value.index
                    }
                }
            },
            completed: {
                completed.store(true, ordering: .relaxed)
                completions.increment()
            })
        // Meanwhile, another thread keeps subscribing and disposing short-lived observers.
        let churned = Counter()
        DispatchQueue.concurrentPerform(iterations: senders + 1) { worker in
            if worker == senders {
                for _ in 0..<500 {
                    let disposable = subject.subscribeNext { _ in churned.increment() }
                    disposable.dispose()
                }
            } else {
                for index in 0..<perSender { subject.sendNext((worker, index)) }
            }
        }
        subject.sendCompleted()
        subject.sendNext((0, perSender))
        #expect(detector.overlapCount == 0)
        #expect(received.count == senders * perSender)
        #expect(outOfOrder.count == 0, "each sender's values arrive in the order it sent them")
        #expect(completions.count == 1)
        #expect(afterCompletion.count == 0)
    }

    @Test("C1: one subscriber sent to from many threads, then terminated mid-stream, keeps the grammar")
    func stressSubscriberGrammar() {
        for _ in 0..<20 {
            let detector = OverlapDetector()
            let nexts = Counter()
            let terminals = Counter()
            let afterTerminal = Counter()
            let ended = Atomic<Bool>(false)
            let signal = Signal<Int> { subscriber in
                DispatchQueue.concurrentPerform(iterations: 4) { worker in
                    for index in 0..<500 {
                        if worker == 3 && index == 250 { subscriber.sendCompleted() }
                        subscriber.sendNext(index)
                    }
                }
                return nil
            }
            signal.subscribe(
                next: { _ in
                    detector.run {
                        if ended.load(ordering: .relaxed) { afterTerminal.increment() }
                        nexts.increment()
                    }
                },
                completed: {
                    detector.run {
                        ended.store(true, ordering: .relaxed)
                        terminals.increment()
                    }
                })
            #expect(detector.overlapCount == 0)
            #expect(terminals.count == 1)
            #expect(afterTerminal.count == 0)
            #expect(nexts.count >= 250 && nexts.count < 2_000)
        }
    }

    @Test("C1, C2: many threads sending straight to one subscriber, and it to itself: every value once, each sender's in order, never overlapping")
    func stressSubscriberFastPath() {
        let senders = 6
        let perSender = 20_000
        let echoEvery = 1_000
        let detector = OverlapDetector()
        let received = Counter()
        let outOfOrder = Counter()
        let lastIndex = Mutex<[Int]>(Array(repeating: -1, count: senders + 1))
        let target = Mutex<Subscriber<(sender: Int, index: Int)>?>(nil)
        let signal = Signal<(sender: Int, index: Int)> { subscriber in
            target.withLock { $0 = subscriber }
            DispatchQueue.concurrentPerform(iterations: senders) { worker in
                for index in 0..<perSender { subscriber.sendNext((worker, index)) }
            }
            subscriber.sendCompleted()
            return nil
        }
        let completions = Counter()
        let echoes = Atomic<Int>(0)
        signal.subscribe(
            next: { value in
                detector.run {
                    received.increment()
                    lastIndex.withLock { last in
                        if value.index <= last[value.sender] { outOfOrder.increment() }
                        last[value.sender] = value.index
                    }
                }
                // A re-entrant send: queued behind this delivery, so the queue and the
                // lock-free path take turns.
                if value.sender < senders && value.index % echoEvery == 0 {
                    let echo = echoes.add(1, ordering: .relaxed).newValue
                    target.withLock { $0 }?.sendNext((senders, echo))
                }
            },
            completed: { completions.increment() })
        #expect(detector.overlapCount == 0)
        #expect(received.count == senders * perSender + senders * (perSender / echoEvery))
        #expect(outOfOrder.count == 0)
        #expect(completions.count == 1)
        target.withLock { $0 = nil }
    }

    @Test("C1: disposing from another thread while events flow stops delivery and releases the observer")
    func disposeRacingWithSends() {
        for _ in 0..<50 {
            let subject = Subject<Int>()
            let (disposable, probe) = CaptureProbe.attach { capture in subject.subscribeNext { _ in _ = capture } }
            DispatchQueue.concurrentPerform(iterations: 2) { worker in
                if worker == 0 {
                    for value in 0..<200 { subject.sendNext(value) }
                } else {
                    disposable.dispose()
                }
            }
            #expect(probe.isReleased)
        }
    }

    @Test("C2: a re-entrant send is delivered after the current closure returns, without deadlock")
    func reentrantSendOnSubscriber() {
        let order = Log<String>()
        var captured: Subscriber<Int>?
        let signal = Signal<Int> { subscriber in
            captured = subscriber
            return nil
        }
        signal.subscribeNext { value in
            order.append("begin \(value)")
            if value == 1 { captured?.sendNext(2) }
            order.append("end \(value)")
        }
        captured?.sendNext(1)
        #expect(order.items == ["begin 1", "end 1", "begin 2", "end 2"])
    }

    @Test("C3: closures may subscribe, dispose and send to other subjects with no deadlock")
    func userCodeRunsWithoutLocks() {
        let outer = Subject<Int>()
        let inner = BehaviorSubject<Int>(0)
        let seen = Log<Int>()
        outer.subscribeNext { value in
            inner.sendNext(value)
            let disposable = inner.subscribeNext { seen.append($0) }
            disposable.dispose()
            if value < 3 { outer.sendNext(value + 1) }
        }
        outer.sendNext(1)
        #expect(seen.items == [1, 2, 3])
    }
}
