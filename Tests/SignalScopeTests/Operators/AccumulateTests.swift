import SignalScopeTools
import SignalScopeTesting
import Testing

@Suite("Operators: accumulating", .timeLimit(.minutes(10)))
struct AccumulateTests {
    @Test("O15: distinctUntilChanged drops repeats of the previous value")
    func distinct() {
        let observer = TestObserver(Signal.merge([1, 1, 2, 2, 1, 3, 3].map { Signal.just($0) }).distinctUntilChanged())
        #expect(observer.recordedEvents == [.next(1), .next(2), .next(1), .next(3), .completed])
    }

    @Test("O16: scan sends each running result, starting afresh per subscription")
    func scan() {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal([.next(1, 1), .next(2, 2), .next(3, 3), .completed(4)])
        let sums = source.signal.scan(10) { $0 + $1 }
        let first = TestObserver(sums, clock: scheduler)
        let second = TestObserver(sums, clock: scheduler)
        scheduler.run()
        #expect(first.recorded == [.next(1, 11), .next(2, 13), .next(3, 16), .completed(4)])
        #expect(second.recorded == first.recorded)
    }

    @Test("O17: aggregate sends the final result at completion, or the start when empty")
    func aggregate() {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal([.next(1, 2), .next(2, 3), .completed(3)])
        let product = TestObserver(source.signal.aggregate(1) { $0 * $1 }, clock: scheduler)
        scheduler.run()
        #expect(product.recorded == [.next(3, 6), .completed(3)])
        #expect(TestObserver(Signal<Int>.empty().aggregate(7) { $0 + $1 }).recordedEvents == [.next(7), .completed])
        #expect(TestObserver(Signal<Int>.error(TestError()).aggregate(7) { $0 + $1 }).recordedEvents == [
            .error("TestError(1)")
        ])
    }

    @Test("O17: collect sends every value as one array at completion")
    func collect() {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal([.next(1, "a"), .next(2, "b"), .completed(3)])
        let observer = TestObserver(source.signal.collect(), clock: scheduler)
        scheduler.run()
        #expect(observer.recorded == [.next(3, ["a", "b"]), .completed(3)])
        #expect(TestObserver(Signal<Int>.empty().collect()).recordedEvents == [.next([]), .completed])
    }
}
