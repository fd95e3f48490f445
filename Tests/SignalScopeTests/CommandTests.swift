import SignalScopeTools
import SignalScopeTesting
import Testing

@Suite("Command", .timeLimit(.minutes(10)))
struct CommandTests {
    @Test("K1: an execution runs its signal once and shares it with the caller and executionSignals")
    func executionIsShared() {
        let scheduler = TestScheduler()
        var runs = 0
        let command = Command<Int, String> { input in
            runs += 1
            return scheduler.createColdSignal([.next(1, "result \(input)"), .completed(2)]).signal
        }
        let latest = TestObserver(command.executionSignals.switchToLatest(), clock: scheduler)
        let returned = command.execute(7)
        let caller = TestObserver(returned, clock: scheduler)
        scheduler.run()
        #expect(runs == 1)
        #expect(caller.recorded == [.next(1, "result 7"), .completed(2)])
        #expect(latest.values == ["result 7"])
        #expect(TestObserver(returned).recordedEvents == [.next("result 7"), .completed], "the execution replays")
    }

    @Test("K2: execution errors go to errors; the inner execution signal just ends; execute's signal fails")
    func errorsAreSeparated() {
        let command = Command<Void, Int> { Signal.error(TestError(code: 5)) }
        let errors = TestObserver(command.errors)
        let inners = Log<String>()
        command.executionSignals.subscribeNext { inner in
            inner.subscribe(error: { _ in inners.append("error") }, completed: { inners.append("completed") })
        }
        let returned = TestObserver(command.execute())
        #expect(errors.values.map { "\($0)" } == ["TestError(5)"])
        #expect(inners.items == ["completed"])
        #expect(returned.recordedEvents == [.error("TestError(5)")])
    }

    @Test("K3: enabled follows the enabled signal AND not executing; executing replays its latest value")
    func enabledAndExecuting() {
        let scheduler = TestScheduler()
        let formValid = Subject<Bool>()
        let command = Command<Void, Int>(enabled: formValid) {
            scheduler.createColdSignal([.next(1, 1), .completed(2)]).signal
        }
        let enabled = TestObserver(command.enabled)
        let executing = TestObserver(command.executing)
        formValid.sendNext(false)
        formValid.sendNext(true)
        command.execute()
        scheduler.run()
        #expect(enabled.values == [true, false, true, false, true])
        #expect(executing.values == [false, true, false])
        #expect(TestObserver(command.executing).values == [false])
        #expect(TestObserver(command.enabled).values == [true])
    }

    @Test("K3: allowsConcurrentExecution keeps the command enabled while it executes")
    func concurrentExecution() {
        let scheduler = TestScheduler()
        let command = Command<Int, Int> { input in scheduler.createColdSignal([.next(1, input), .completed(2)]).signal }
        command.allowsConcurrentExecution = true
        let enabled = TestObserver(command.enabled)
        let first = TestObserver(command.execute(1))
        let second = TestObserver(command.execute(2))
        scheduler.run()
        #expect(enabled.values == [true])
        #expect(first.values == [1] && second.values == [2])
        #expect(command.allowsConcurrentExecution)
    }

    @Test("K4: executing while disabled fails with notEnabled and does not run the block")
    func notEnabled() {
        let scheduler = TestScheduler()
        var runs = 0
        let command = Command<Void, Int> {
            runs += 1
            return scheduler.createColdSignal([.next(1, 1), .completed(2)]).signal
        }
        command.execute()
        let refused = TestObserver(command.execute())
        #expect(refused.error as? CommandError == .notEnabled)
        #expect(runs == 1)
        scheduler.run()
        #expect(TestObserver(command.execute()).error == nil)
        #expect(runs == 2)

        let disabled = Command<Void, Int>(enabled: .just(false)) { .just(1) }
        #expect(TestObserver(disabled.execute()).error as? CommandError == .notEnabled)
    }

    @Test("K5: a subscriber to errors that arrives after an execution started still receives its error")
    func lateErrorsSubscriber() {
        let scheduler = TestScheduler()
        let command = Command<Void, Int> { scheduler.createColdSignal([.error(2, "network down")]).signal }
        command.execute()
        scheduler.advance(by: 1)
        let errors = TestObserver(command.errors)
        scheduler.run()
        #expect(errors.values.map { "\($0)" } == ["network down"])
    }

    @Test("K6: the command's signals deliver on its scheduler and complete when it is deinitialized")
    func schedulerAndDeinit() {
        let scheduler = TestScheduler()
        var command: Command<Void, Int>? = Command(scheduler: scheduler) { .just(1) }
        let executing = TestObserver(command!.executing)
        let errors = TestObserver(command!.errors)
        command!.execute()
        #expect(executing.values.isEmpty)
        scheduler.advance(by: 0)
        #expect(executing.values == [false, true, false])
        command = nil
        scheduler.advance(by: 0)
        #expect(executing.isCompleted)
        #expect(errors.isCompleted)
    }
}
