import Foundation
import SignalScopeTools
import SignalScopeTesting
import Testing

/// Every row of the operator table, under the names the operators issue fixes. If a name
/// or signature drifts, this file stops compiling.
@Suite("The operator vocabulary as written", .timeLimit(.minutes(10)))
struct OperatorsAsWrittenTests {
    @Test("Every RAC operator has its SignalScope name")
    func vocabulary() {
        let scheduler = TestScheduler()
        let s = Signal<Int>.just(1)
        let b = Signal<Bool>.just(true)
        let ss = Signal<Signal<Int>>.just(s)
        let subject = Subject<Int>()

        let all: [Signal<Int>] = [
            s.map { $0 }, s.mapReplace(2),
            s.filter { _ in true }, s.ignore(1), s.ignoreValues(),
            s.flattenMap { .just($0) }, ss.flatten(), ss.concat(),
            ss.switchToLatest(),
            s.bind { { value, _ in .just(value) } },
            s.concat(s), s.startWith(0), s.then { .just(2) },
            s.take(1), s.takeUntil(Signal<Void>.never()), s.takeLast(1), s.skip(1),
            s.takeWhile { _ in true }, s.skipWhile { _ in false },
            s.distinctUntilChanged(), s.scan(0) { $0 + $1 }, s.aggregate(0) { $0 + $1 },
            Signal.merge([s, s]), s.merge(s),
            Signal.zip(s, s).map { $0 + $1 }, Signal.zip([s, s]).map { $0.count },
            Signal.combineLatest(s, s).map { $0 + $1 }, Signal.combineLatest([s, s]).map { $0.count },
            Signal.interval(1, on: scheduler).map { _ in 0 },
            s.delay(1, on: scheduler), s.throttle(1, on: scheduler), s.timeout(1, on: scheduler),
            s.deliver(on: scheduler), s.subscribe(on: scheduler),
            s.catch { _ in .empty() }, s.catchTo(.empty()), s.retry(), s.retry(2),
            s.doNext { _ in }, s.doError { _ in }, s.doCompleted {},
            s.replay(), s.replayLast(), s.replayLazily(), s.publish().signal, s.multicast(subject).signal,
            s.publish().autoconnect(),
            s.materialize().dematerialize(),
            Signal.if(b, then: s, else: s),
            s.named("numbers"), s.log("numbers", to: { _ in }),
            Signal.defer { s },
        ]
        let connection: MulticastConnection<Int> = s.publish()
        let _: Disposable = connection.connect()
        let _: Signal<[Int]> = s.collect()
        let _: Signal<Event<Int>> = s.materialize()
        let _: Signal<Bool> = b.not()
        let _: Signal<Bool> = Signal.combineLatest(b, b).and()
        let _: Signal<Bool> = Signal.combineLatest([b, b]).or()
        let _: Signal<Date> = Signal.interval(1, on: scheduler)

        let command = Command<Int, String>(enabled: b) { input in .just("\(input)") }
        let _: Signal<String> = command.execute(1)
        let _: Signal<Signal<String>> = command.executionSignals
        let _: Signal<any Error> = command.errors
        let _: Signal<Bool> = command.executing
        let _: Signal<Bool> = command.enabled
        command.allowsConcurrentExecution = false
        let _: CommandError = .notEnabled

        #expect(all.count == 52)
        #expect(Set(all.map(\.id)).count == all.count, "each operator made a node of its own (named returns `s`, which is not otherwise listed)")
    }
}
