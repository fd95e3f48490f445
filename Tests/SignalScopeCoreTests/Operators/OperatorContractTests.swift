import SignalScope
import SignalScopeTesting
import Testing

/// Rule O0, checked for every operator with one source: errors pass through, and ending
/// the result disposes every subscription the operator made and releases the observer.
@Suite("Operators: the common contract")
struct OperatorContractTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let apply: @Sendable (Signal<Int>, TestScheduler) -> Signal<Int>
        var testDescription: String { name }

        init(_ name: String, _ apply: @escaping @Sendable (Signal<Int>, TestScheduler) -> Signal<Int>) {
            self.name = name
            self.apply = apply
        }
    }

    static let operators: [Case] = [
        Case("map") { source, _ in source.map { $0 + 1 } },
        Case("mapReplace") { source, _ in source.mapReplace(0) },
        Case("filter") { source, _ in source.filter { _ in true } },
        Case("ignore") { source, _ in source.ignore(7) },
        Case("ignoreValues") { source, _ in source.ignoreValues() },
        Case("flattenMap") { source, scheduler in
            source.flattenMap { scheduler.createColdSignal([.next(1, $0)]).signal }
        },
        Case("flatten") { source, scheduler in
            source.map { scheduler.createColdSignal([.next(1, $0)]).signal }.flatten()
        },
        Case("concat()") { source, scheduler in
            source.map { scheduler.createColdSignal([.next(1, $0)]).signal }.concat()
        },
        Case("switchToLatest") { source, scheduler in
            source.map { scheduler.createColdSignal([.next(1, $0)]).signal }.switchToLatest()
        },
        Case("bind") { source, _ in source.bind { { value, _ in .just(value) } } },
        Case("concat(_:)") { source, _ in source.concat(.just(0)) },
        Case("startWith") { source, _ in source.startWith(0) },
        Case("then") { source, _ in source.then { .just(0) } },
        Case("take") { source, _ in source.take(5) },
        Case("takeUntil") { source, _ in source.takeUntil(Signal<Void>.never()) },
        Case("takeLast") { source, _ in source.takeLast(1) },
        Case("skip") { source, _ in source.skip(1) },
        Case("takeWhile") { source, _ in source.takeWhile { _ in true } },
        Case("skipWhile") { source, _ in source.skipWhile { _ in true } },
        Case("distinctUntilChanged") { source, _ in source.distinctUntilChanged() },
        Case("scan") { source, _ in source.scan(0) { $0 + $1 } },
        Case("aggregate") { source, _ in source.aggregate(0) { $0 + $1 } },
        Case("collect") { source, _ in source.collect().map(\.count) },
        Case("merge") { source, _ in source.merge(.never()) },
        Case("zip") { source, _ in source.zip(with: Signal<Int>.never()).map { $0.0 } },
        Case("combineLatest") { source, _ in Signal.combineLatest(source, .just(0)).map { $0.0 } },
        Case("delay") { source, scheduler in source.delay(0.5, on: scheduler) },
        Case("throttle") { source, scheduler in source.throttle(0.5, on: scheduler) },
        Case("timeout") { source, scheduler in source.timeout(100, on: scheduler) },
        Case("deliver(on:)") { source, scheduler in source.deliver(on: scheduler) },
        Case("subscribe(on:)") { source, scheduler in source.subscribe(on: scheduler) },
        Case("catch") { source, _ in source.catch { .error($0) } },
        Case("retry(1)") { source, _ in source.retry(1) },
        Case("doNext") { source, _ in source.doNext { _ in } },
        Case("doError") { source, _ in source.doError { _ in } },
        Case("doCompleted") { source, _ in source.doCompleted {} },
        Case("materialize, dematerialize") { source, _ in source.materialize().dematerialize() },
        Case("if") { source, _ in Signal.if(.just(true), then: source, else: .never()) },
        Case("log") { source, _ in source.log(to: { _ in }) },
        Case("defer") { source, _ in Signal.defer { source } },
    ]

    @Test("O0: an error from the source reaches the result", arguments: operators)
    func errorsPassThrough(_ operation: Case) {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal([.next(1, 1), .error(2, "boom")])
        let observer = TestObserver(operation.apply(source.signal, scheduler), clock: scheduler)
        scheduler.run()
        #expect(observer.recordedEvents.last == .error("boom"))
        #expect(observer.recordedEvents.filter { if case .error = $0 { true } else { false } }.count == 1)
    }

    @Test("O0: disposing the result disposes every subscription the operator made and releases the observer",
          arguments: operators)
    func disposalReachesUpstream(_ operation: Case) {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal([.next(1, 1), .next(10, 2)])
        let (disposable, probe) = CaptureProbe.attach { capture in
            operation.apply(source.signal, scheduler).subscribeNext { _ in _ = capture }
        }
        scheduler.advance(by: 3)
        #expect(!probe.isReleased)
        disposable.dispose()
        #expect(probe.isReleased)
        #expect(!source.subscriptions.isEmpty)
        #expect(source.subscriptions.allSatisfy { $0.ended == 3 }, "\(source.subscriptions)")
        scheduler.run()
    }
}
