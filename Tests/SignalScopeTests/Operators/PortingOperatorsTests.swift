import SignalScopeTools
import SignalScopeTesting
import Testing

/// The operators that code ported from ReactiveSwift, RxSwift and Combine reaches for:
/// `sample(on:)`, `withLatest(from:)`, `skipNil()`, N-ary `combineLatest` and `zip`,
/// `distinctUntilChanged(by:)`, the ways out of `materialize()`, `share()` and
/// `assign(to:on:)`.
@Suite("Operators: what ported code needs", .timeLimit(.minutes(10)))
struct PortingOperatorsTests {
    @Test("O39: sample(on:) sends the latest value at each trigger, again if nothing newer came, nothing before the first")
    func sampleSendsTheLatestValue() {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal([.next(2, 1), .next(3, 2), .next(6, 3)])
        let trigger = scheduler.createColdSignal([.next(1, ()), .next(4, ()), .next(5, ()), .next(7, ())])
        let observer = TestObserver(source.signal.sample(on: trigger.signal), clock: scheduler)
        scheduler.run()
        #expect(observer.recorded == [.next(4, 2), .next(5, 2), .next(7, 3)])
    }

    @Test("O39: sample(on:) completes when either input completes, fails when either fails, and disposes the other",
          arguments: [("source", "completed"), ("trigger", "completed"), ("source", "error"), ("trigger", "error")])
    func sampleEndsWithEitherInput(_ ending: String, _ kind: String) {
        let scheduler = TestScheduler()
        let end: Recorded<Int> = kind == "error" ? .error(3, "\(ending) failed") : .completed(3)
        let source = scheduler.createColdSignal(ending == "source" ? [.next(1, 1), end] : [.next(1, 1)])
        let trigger = scheduler.createColdSignal(
            ending == "trigger" ? [.next(2, 0), end] : [.next(2, 0)])
        let observer = TestObserver(source.signal.sample(on: trigger.signal), clock: scheduler)
        scheduler.run()
        #expect(observer.recorded == [.next(2, 1), kind == "error" ? .error(3, "\(ending) failed") : .completed(3)])
        #expect(source.subscriptions == [SubscriptionSpan(0, 3)])
        #expect(trigger.subscriptions == [SubscriptionSpan(0, 3)])
    }

    @Test("O39: sample(on:) subscribes the source first, so its synchronous value is there for the trigger's")
    func sampleSubscribesTheSourceFirst() {
        let observer = TestObserver(Signal.just(7).concat(.never()).sample(on: Signal.just(())))
        #expect(observer.recordedEvents == [.next(7), .completed])
    }

    @Test("O40: withLatest(from:) pairs each value with the other's latest, once it has one; the other's completion keeps it")
    func withLatestPairs() {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal([.next(1, 1), .next(3, 2), .next(5, 3), .completed(6)])
        let other = scheduler.createColdSignal([.next(2, "a"), .next(4, "b"), .completed(4)])
        let observer = TestObserver(source.signal.withLatest(from: other.signal).map { "\($0)\($1)" }, clock: scheduler)
        scheduler.run()
        #expect(observer.recorded == [.next(3, "2a"), .next(5, "3b"), .completed(6)])
        #expect(other.subscriptions == [SubscriptionSpan(0, 4)])
    }

    @Test("O40: withLatest(from:) subscribes the other first; its error fails the result and disposes the source")
    func withLatestOrderAndErrors() {
        let observer = TestObserver(Signal.just(1).withLatest(from: Signal.just("x")).map { "\($0)\($1)" })
        #expect(observer.recordedEvents == [.next("1x"), .completed])
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal([.next(1, 1)])
        let other = scheduler.createColdSignal([Recorded<Int>.error(2, "gone")])
        let failed = TestObserver(source.signal.withLatest(from: other.signal).map { $0.0 }, clock: scheduler)
        scheduler.run()
        #expect(failed.recorded == [.error(2, "gone")])
        #expect(source.subscriptions == [SubscriptionSpan(0, 2)])
    }

    @Test("O41: skipNil() drops nil and sends the others unwrapped")
    func skipNilUnwraps() {
        let values: [Int?] = [1, nil, 2, nil]
        let signal: Signal<Int> = Signal<Int?> { subscriber in
            for value in values { subscriber.sendNext(value) }
            subscriber.sendCompleted()
            return nil
        }.skipNil()
        #expect(TestObserver(signal).recordedEvents == [.next(1), .next(2), .completed])
    }

    @Test("O15: distinctUntilChanged(by:) compares with the last value sent; the first always passes")
    func distinctByEquivalence() {
        let words = ["a", "A", "b", "B", "b", "c"]
        let signal = Signal<String> { subscriber in
            for word in words { subscriber.sendNext(word) }
            return nil
        }
        let observer = TestObserver(signal.distinctUntilChanged { $0.lowercased() == $1.lowercased() })
        #expect(observer.values == ["a", "b", "c"])
        var compared: [String] = []
        let recordComparisons = TestObserver(signal.distinctUntilChanged { previous, _ in
            compared.append(previous)
            return true
        })
        #expect(recordComparisons.values == ["a"])
        #expect(compared == ["a", "a", "a", "a", "a"], "a dropped value is never compared with")
    }

    @Test("O19: zip of three to six inputs pairs them in order into typed tuples")
    func naryZip() {
        let observer3 = TestObserver(Signal.zip(Signal.just(1), Signal.just("a"), Signal.just(true)).map { "\($0)\($1)\($2)" })
        #expect(observer3.recordedEvents == [.next("1atrue"), .completed])
        let six = Signal.zip(Signal.just(1), Signal.just(2), Signal.just(3), Signal.just(4), Signal.just(5), Signal.just("six"))
        #expect(TestObserver(six.map { "\($0 + $1 + $2 + $3 + $4)\($5)" }).recordedEvents == [.next("15six"), .completed])
        let four = Signal.zip(Signal.just(1), Signal.just(2), Signal.just(3), Signal<Int>.empty())
        #expect(TestObserver(four.map { $0.0 }).recordedEvents == [.completed])
        let five = Signal.zip(Signal.just(1), Signal.just(2), Signal.just(3), Signal.just(4), Signal<Int>.error(TestError()))
        #expect(TestObserver(five.map { $0.0 }).recordedEvents == [.error("TestError(1)")])
    }

    @Test("O20: combineLatest of three to six inputs sends typed tuples of the latest values once each has sent")
    func naryCombineLatest() {
        let scheduler = TestScheduler()
        let a = scheduler.createColdSignal([.next(1, 1), .next(4, 2), .completed(5)])
        let b = scheduler.createColdSignal([.next(2, "x"), .completed(3)])
        let c = scheduler.createColdSignal([.next(3, true), .completed(6)])
        let observer = TestObserver(Signal.combineLatest(a.signal, b.signal, c.signal).map { "\($0)\($1)\($2)" }, clock: scheduler)
        scheduler.run()
        #expect(observer.recorded == [.next(3, "1xtrue"), .next(4, "2xtrue"), .completed(6)])
        let four = Signal.combineLatest(Signal.just(1), Signal.just(2), Signal.just(3), Signal.just(4))
        #expect(TestObserver(four.map { $0 + $1 + $2 + $3 }).values == [10])
        let five = Signal.combineLatest(Signal.just(1), Signal.just(2), Signal.just(3), Signal.just(4), Signal.just(5))
        #expect(TestObserver(five.map { $0 + $1 + $2 + $3 + $4 }).values == [15])
        let six = Signal.combineLatest(Signal.just(1), Signal.just(2), Signal.just(3), Signal.just(4), Signal.just(5), Signal.just(6))
        #expect(TestObserver(six.map { $0 + $1 + $2 + $3 + $4 + $5 }).values == [21])
    }

    @Test("O33: values(), errors() and completions() pick one kind of event out of materialize()'s")
    func eventKinds() {
        let events: [Event<Int>] = [.next(1), .error(TestError(code: 2)), .completed, .next(3)]
        let signal = Signal<Event<Int>> { subscriber in
            for event in events { subscriber.sendNext(event) }
            subscriber.sendCompleted()
            return nil
        }
        #expect(TestObserver(signal.values()).recordedEvents == [.next(1), .next(3), .completed])
        #expect(TestObserver(signal.errors().map { "\($0)" }).recordedEvents == [.next("TestError(2)"), .completed])
        #expect(TestObserver(signal.completions().map { "done" }).recordedEvents == [.next("done"), .completed])
        let request = Signal<Int>.error(TestError(code: 9)).materialize()
        #expect(TestObserver(request.errors().map { "\($0)" }).values == ["TestError(9)"])
        #expect(TestObserver(request.values()).recordedEvents == [.completed])
    }

    @Test("O42: share() subscribes the source once for all current subscribers, who see only later values")
    func shareSubscribesOnce() {
        let runs = Counter()
        let source = Subject<Int>()
        let shared = Signal<Int> { subscriber in
            runs.increment()
            return source.subscribe(subscriber)
        }.share()
        let first = TestObserver(shared)
        source.sendNext(1)
        let second = TestObserver(shared)
        source.sendNext(2)
        #expect(runs.count == 1)
        #expect(first.values == [1, 2])
        #expect(second.values == [2])
        source.sendCompleted()
        #expect(first.isCompleted && second.isCompleted)
    }

    @Test("O42: share() disposes the source when the last subscriber leaves, and subscribes again for the next")
    func shareReconnects() {
        let runs = Counter(), disposals = Counter()
        let shared = Signal<Int> { subscriber in
            runs.increment()
            subscriber.sendNext(runs.count)
            return Disposable { disposals.increment() }
        }.share()
        let first = TestObserver(shared)
        let second = TestObserver(shared)
        #expect(first.values == [1] && second.values.isEmpty, "a late subscriber sees only later values")
        first.disposable.dispose()
        #expect(disposals.count == 0)
        second.disposable.dispose()
        #expect(disposals.count == 1)
        let third = TestObserver(shared)
        #expect(runs.count == 2)
        #expect(third.values == [2])
        let afterEnd = Signal<Int>.just(5).share()
        #expect(TestObserver(afterEnd).recordedEvents == [.next(5), .completed])
        #expect(TestObserver(afterEnd).recordedEvents == [.next(5), .completed], "a stream that ended starts again")
    }

    @Test("O43: assign(to:on:) sets the key path on every value, without keeping the object alive")
    func assignSetsWithoutRetaining() {
        final class Label { var text = "" }
        let title = Subject<String>()
        var label: Label? = Label()
        weak let weakLabel = label
        title.assign(to: \.text, on: label!)
        title.sendNext("Hello")
        #expect(label?.text == "Hello")
        label = nil
        #expect(weakLabel == nil, "the binding does not keep its object alive")
        title.sendNext("ignored")
    }

    @Test("O43: assign(to:on:) ends at the first value after its object is gone, when the source ends, or when disposed")
    func assignEnds() {
        final class Label { var text = "" }
        let disposals = Counter()
        let title = Subject<String>()
        let source = Signal<String> { subscriber in
            let forwarding = title.subscribe(subscriber)
            return Disposable {
                disposals.increment()
                forwarding.dispose()
            }
        }
        var label: Label? = Label()
        source.assign(to: \.text, on: label!)
        label = nil
        #expect(disposals.count == 0)
        title.sendNext("after")
        #expect(disposals.count == 1, "the value that found the object gone ended the binding")

        let kept = Label()
        let binding = source.assign(to: \.text, on: kept)
        title.sendNext("one")
        binding.dispose()
        title.sendNext("two")
        #expect(kept.text == "one")
        #expect(disposals.count == 2)
    }
}
