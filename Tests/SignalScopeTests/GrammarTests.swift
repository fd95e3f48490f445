import SignalScopeTools
import SignalScopeTesting
import Testing

@Suite("Event grammar", .timeLimit(.minutes(10)))
struct GrammarTests {
    @Test("S3: events after completed never reach the observer")
    func nothingAfterCompleted() {
        let signal = Signal<Int> { subscriber in
            subscriber.sendNext(1)
            subscriber.sendCompleted()
            subscriber.sendNext(2)
            subscriber.sendError(TestError())
            subscriber.sendCompleted()
            return nil
        }
        #expect(TestObserver(signal).recordedEvents == [.next(1), .completed])
    }

    @Test("S3: events after an error never reach the observer")
    func nothingAfterError() {
        let signal = Signal<Int> { subscriber in
            subscriber.sendError(TestError(code: 2))
            subscriber.sendNext(1)
            subscriber.sendCompleted()
            return nil
        }
        #expect(TestObserver(signal).recordedEvents == [.error("TestError(2)")])
    }

    @Test("S3: events sent after dispose are dropped")
    func nothingAfterDispose() {
        var captured: Subscriber<Int>?
        let signal = Signal<Int> { subscriber in
            captured = subscriber
            return nil
        }
        let observer = TestObserver(signal)
        captured?.sendNext(1)
        observer.disposable.dispose()
        captured?.sendNext(2)
        captured?.sendCompleted()
        #expect(observer.recordedEvents == [.next(1)])
    }

    @Test("S3: Event knows whether it is terminal and what it carries")
    func eventAccessors() {
        let next = Event<Int>.next(4)
        let failure = Event<Int>.error(TestError())
        #expect(!next.isTerminal && next.value == 4 && next.error == nil)
        #expect(failure.isTerminal && failure.value == nil && failure.error is TestError)
        #expect(Event<Int>.completed.isTerminal)
        #expect("\(next)" == "next(4)" && "\(Event<Int>.completed)" == "completed")
    }
}
