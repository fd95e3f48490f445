import SignalScopeTools
import SignalScopeTesting
import Testing

@Suite("Operators: side effects, events and naming", .timeLimit(.minutes(10)))
struct SideEffectTests {
    @Test("O29: doNext, doError and doCompleted run before the event is forwarded")
    func doOperators() {
        let log = Log<String>()
        let signal = Signal.just(1)
            .doNext { log.append("doNext \($0)") }
            .doCompleted { log.append("doCompleted") }
        signal.subscribe(next: { log.append("next \($0)") }, completed: { log.append("completed") })
        Signal<Int>.error(TestError()).doError { log.append("doError \($0)") }.subscribe(error: { _ in log.append("error") })
        #expect(log.items == ["doNext 1", "next 1", "doCompleted", "completed", "doError TestError(1)", "error"])
    }

    @Test("O33: materialize turns events into values; dematerialize turns them back")
    func materialize() {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal([.next(1, 1), .error(2, "e")])
        let events = TestObserver(source.signal.materialize().map { "\($0)" }, clock: scheduler)
        let roundTrip = TestObserver(source.signal.materialize().dematerialize(), clock: scheduler)
        scheduler.run()
        #expect(events.recorded == [.next(1, "next(1)"), .next(2, "error(e)"), .completed(2)])
        #expect(roundTrip.recorded == [.next(1, 1), .error(2, "e")])
    }

    @Test("O34: not, and, or on Boolean signals and pairs")
    func booleans() {
        #expect(TestObserver(Signal.just(true).not()).values == [false])
        #expect(TestObserver(Signal.just([true, true, false]).and()).values == [false])
        #expect(TestObserver(Signal.just([true, false]).or()).values == [true])
        let pair = Signal.combineLatest(Signal.just(true), Signal.just(true))
        #expect(TestObserver(pair.and()).values == [true])
        #expect(TestObserver(Signal.combineLatest(Signal.just(false), Signal.just(false)).or()).values == [false])
    }

    @Test("O36: log prints every event with its label; named returns the same node")
    func logAndNamed() {
        let lines = Log<String>()
        let subject = Subject<Int>()
        #expect(subject.named("taps") === subject)
        TestObserver(subject.log("taps", to: { lines.append($0) })).disposable.dispose()
        let observer = TestObserver(subject.log("taps", to: { lines.append($0) }))
        subject.sendNext(1)
        subject.sendError(TestError())
        #expect(lines.items == ["taps next(1)", "taps error(TestError(1))"])
        #expect(observer.recordedEvents == [.next(1), .error("TestError(1)")])
    }

    @Test("O37: defer makes the signal anew for every subscription")
    func deferred() {
        var made = 0
        let deferred = Signal<Int>.defer {
            made += 1
            return .just(made)
        }
        #expect(made == 0)
        #expect(TestObserver(deferred).values == [1])
        #expect(TestObserver(deferred).values == [2])
    }
}
