import SignalScopeTools
import SignalScopeTesting
import Testing

@Suite("Subjects", .timeLimit(.minutes(10)))
struct SubjectTests {
    @Test("J1: a subject is a signal and a subscriber")
    func subjectIsSignalAndSubscriber() {
        let subject = Subject<Int>()
        let signal: Signal<Int> = subject
        let observer = TestObserver(signal)
        Signal.just(1).subscribe(subject)
        #expect(observer.recordedEvents == [.next(1), .completed])
    }

    @Test("J1: subscribers share one stream and see only events sent after they subscribed")
    func hotSharing() {
        let subject = Subject<String>()
        let early = TestObserver(subject)
        subject.sendNext("a")
        let late = TestObserver(subject)
        subject.sendNext("b")
        #expect(early.values == ["a", "b"])
        #expect(late.values == ["b"])
    }

    @Test("J2: a never-completed subject keeps its subscribers' captures alive")
    func neverCompletedSubjectKeepsCaptures() {
        let subject = Subject<Int>()
        let probe = CaptureProbe.attach { capture in subject.subscribeNext { _ in _ = capture } }.probe
        subject.sendNext(1)
        #expect(!probe.isReleased, "the subject holds the subscriber, which holds the capture")
        subject.sendCompleted()
        #expect(probe.isReleased, "completing releases every subscriber")
    }

    @Test("J2: a never-completed subject with subscribers lives on after the last reference to it")
    func neverCompletedSubjectLivesOn() {
        weak var weakSubject: Subject<Int>?
        let probe = CaptureProbe.attach { capture in
            let subject = Subject<Int>()
            weakSubject = subject
            subject.subscribeNext { _ in _ = capture }
        }.probe
        #expect(weakSubject != nil, "subject and subscriber keep each other alive: the leak RAC users hit")
        #expect(!probe.isReleased)
        weakSubject?.sendCompleted()
        #expect(weakSubject == nil)
        #expect(probe.isReleased)
    }

    @Test("J2: disposing one subscription removes just that subscriber")
    func disposeRemovesSubscriber() {
        let subject = Subject<Int>()
        let other = TestObserver(subject)
        let (disposable, probe) = CaptureProbe.attach { capture in subject.subscribeNext { _ in _ = capture } }
        disposable.dispose()
        #expect(probe.isReleased)
        subject.sendNext(1)
        #expect(other.values == [1])
    }

    @Test("J3: a terminated subject drops later events and completes late subscribers at once")
    func terminatedSubject() {
        let subject = Subject<Int>()
        subject.sendNext(1)
        subject.sendCompleted()
        subject.sendNext(2)
        #expect(TestObserver(subject).recordedEvents == [.completed])

        let failed = Subject<Int>()
        failed.sendError(TestError(code: 9))
        failed.sendCompleted()
        #expect(TestObserver(failed).recordedEvents == [.error("TestError(9)")])
    }

    @Test("J4: a replay subject replays its latest values up to its capacity, then its terminal event")
    func replayWithCapacity() {
        let replay = ReplaySubject<Int>(capacity: 2)
        replay.sendNext(1)
        replay.sendNext(2)
        replay.sendNext(3)
        #expect(TestObserver(replay).recordedEvents == [.next(2), .next(3)])
        replay.sendCompleted()
        #expect(TestObserver(replay).recordedEvents == [.next(2), .next(3), .completed])
    }

    @Test("J4: a replay subject's capacity is unlimited by default, and 0 replays nothing")
    func replayCapacityDefaults() {
        let unlimited = ReplaySubject<Int>()
        for value in 1...100 { unlimited.sendNext(value) }
        #expect(TestObserver(unlimited).values == Array(1...100))

        let none = ReplaySubject<Int>(capacity: 0)
        none.sendNext(1)
        none.sendError(TestError())
        #expect(TestObserver(none).recordedEvents == [.error("TestError(1)")])
    }

    @Test("J4: a live replay subscriber gets replayed values, then live ones, with no gap or duplicate")
    func replayThenLive() {
        let replay = ReplaySubject<Int>(capacity: 3)
        replay.sendNext(1)
        let observer = TestObserver(replay)
        replay.sendNext(2)
        #expect(observer.values == [1, 2])
    }

    @Test("J5: a behavior subject starts with its current value, then sends every new one")
    func behaviorSubject() {
        let behavior = BehaviorSubject<Int>(0)
        let first = TestObserver(behavior)
        behavior.sendNext(1)
        let second = TestObserver(behavior)
        behavior.sendNext(2)
        #expect(first.values == [0, 1, 2])
        #expect(second.values == [1, 2])
    }

    @Test("J6: an event sent from inside a subscriber reaches everyone after the current one")
    func reentrantSendIsOrdered() {
        let subject = Subject<Int>()
        let first = Log<Int>()
        let second = Log<Int>()
        subject.subscribeNext { value in
            first.append(value)
            if value == 1 { subject.sendNext(2) }
        }
        subject.subscribeNext { second.append($0) }
        subject.sendNext(1)
        #expect(first.items == [1, 2])
        #expect(second.items == [1, 2])
    }

    @Test("J6: a subscriber added during a delivery starts with the next event")
    func subscribeDuringDelivery() {
        let subject = Subject<Int>()
        var late: TestObserver<Int>?
        subject.subscribeNext { value in
            if value == 1 { late = TestObserver(subject) }
        }
        subject.sendNext(1)
        subject.sendNext(2)
        #expect(late?.values == [2])
    }

    @Test("J8: pipe() is hot: what its input sends reaches the output's current subscribers")
    func pipeIsHot() {
        let (output, input) = Signal<Int>.pipe()
        input.sendNext(1)
        let observer = TestObserver(output)
        input.sendNext(2)
        input.sendCompleted()
        #expect(observer.recordedEvents == [.next(2), .completed])
        withExtendedLifetime(input) {}
    }

    @Test("J8: releasing a pipe's input completes its output, which ends the chains on it and releases their observers")
    func pipeCompletesWhenItsInputGoes() {
        var input: SignalInput<Int>?
        let output: Signal<Int>
        (output, input) = Signal<Int>.pipe()
        let chain = TestObserver(output.map { $0 * 10 })
        let (_, probe) = CaptureProbe.attach { capture in output.subscribeNext { _ in _ = capture } }
        input?.sendNext(1)
        #expect(!probe.isReleased)
        input = nil
        #expect(chain.recordedEvents == [.next(10), .completed])
        #expect(probe.isReleased)
        #expect(TestObserver(output).recordedEvents == [.completed])
    }

    @Test("J8: a signal forwarding into a pipe's input keeps it alive until it ends")
    func forwardingIntoAPipe() {
        let (output, input) = Signal<Int>.pipe()
        let observer = TestObserver(output)
        Signal.just(3).subscribe(input)
        #expect(observer.recordedEvents == [.next(3), .completed])
    }
}
