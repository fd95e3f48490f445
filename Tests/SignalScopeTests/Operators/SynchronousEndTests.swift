import SignalScopeTools
import Testing

/// Rule O38: once the result has ended, even in the middle of a synchronous emission while it
/// is being subscribed, an operator subscribes to nothing more and calls none of its closures
/// again. Each test counts the work done after the end; RAC 2 does none of it.
@Suite("Operators: no work after a synchronous end", .timeLimit(.minutes(10)))
struct SynchronousEndTests {
    /// A cold signal that counts its subscriptions (its creation block runs once each).
    static func counted<Value>(_ subscriptions: Counter, _ events: [Event<Value>] = []) -> Signal<Value> {
        Signal { subscriber in
            subscriptions.increment()
            for event in events { subscriber.send(event) }
            return nil
        }
    }

    static let failure: Signal<Int> = .error(TestError())

    @Test("O38: Signal.merge does not subscribe the inputs after one that failed while being subscribed")
    func mergeOfManyStops() {
        let second = Counter()
        let events = Log<String>()
        Signal.merge([Self.failure, Self.counted(second)]).subscribe(error: { events.append("\($0)") })
        #expect(second.count == 0)
        #expect(events.items == ["TestError(1)"])
    }

    @Test("O38: merge(_:) and concat(_:) do not subscribe the other signal after a synchronous failure")
    func mergeAndConcatOfTwoStop() {
        let merged = Counter(), concatenated = Counter()
        Self.failure.merge(Self.counted(merged)).subscribe()
        Self.failure.concat(Self.counted(concatenated)).subscribe()
        #expect(merged.count == 0)
        #expect(concatenated.count == 0)
    }

    @Test("O38: flattenMap calls its transform no more, and subscribes no more inner signals, once the first inner signal failed")
    func flattenMapStops() {
        let transforms = Counter(), later = Counter()
        Signal<Int> { subscriber in
            for value in 1...3 { subscriber.sendNext(value) }
            subscriber.sendCompleted()
            return nil
        }
        .flattenMap { value -> Signal<Int> in
            transforms.increment()
            return value == 1 ? Self.failure : Self.counted(later)
        }
        .subscribe()
        #expect(transforms.count == 1)
        #expect(later.count == 0)
    }

    @Test("O38: flatten, concat() and switchToLatest subscribe no later inner signal once the first failed",
          arguments: ["flatten", "concat()", "switchToLatest"])
    func flatteningOperatorsStop(_ name: String) {
        let later = Counter()
        let outer = Signal<Signal<Int>> { subscriber in
            subscriber.sendNext(Self.failure)
            subscriber.sendNext(Self.counted(later))
            subscriber.sendNext(Self.counted(later))
            subscriber.sendCompleted()
            return nil
        }
        let result =
            switch name {
            case "flatten": outer.flatten()
            case "concat()": outer.concat()
            default: outer.switchToLatest()
            }
        result.subscribe()
        #expect(later.count == 0)
    }

    @Test("O38: bind calls its binder no more once the result failed")
    func bindStops() {
        let binderCalls = Counter()
        Signal<Int> { subscriber in
            for value in 1...3 { subscriber.sendNext(value) }
            return nil
        }
        .bind {
            { _, _ in
                binderCalls.increment()
                return Self.failure
            }
        }
        .subscribe()
        #expect(binderCalls.count == 1)
    }

    @Test("O11, O38: takeUntil never subscribes its source when the trigger ends the result while being subscribed")
    func takeUntilDoesNotStart() {
        let source = Counter()
        let completions = Counter()
        Self.counted(source, [.next(1)]).takeUntil(Signal<Void>.empty()).subscribe(completed: { completions.increment() })
        Self.counted(source, [.next(1)]).takeUntil(Signal.just(())).subscribe()
        #expect(source.count == 0)
        #expect(completions.count == 1)
    }

    @Test("O38: zip and combineLatest subscribe no later input once an earlier one failed while being subscribed")
    func combiningOperatorsStop() {
        let later = Counter()
        Signal.zip(Self.failure, Self.counted(later, [Event<Int>.next(1)])).subscribe()
        Signal.combineLatest(Self.failure, Self.counted(later, [Event<Int>.next(1)])).subscribe()
        Signal.zip([Self.failure, Self.counted(later)]).subscribe()
        #expect(later.count == 0)
    }

    @Test("O38: catch, catchTo and then subscribe nothing more once their recovery or follower ended the result")
    func recoveringOperatorsStop() {
        let later = Counter()
        // The recovery fails at once; the source's remaining synchronous work must go nowhere.
        Self.failure.catch { _ in Self.failure }.concat(Self.counted(later)).subscribe()
        Self.failure.catchTo(Self.failure).concat(Self.counted(later)).subscribe()
        Signal<Int>.empty().then { Self.failure }.concat(Self.counted(later)).subscribe()
        #expect(later.count == 0)
    }

    @Test("O38: Signal.if subscribes no branch when its condition failed while being subscribed, and defer calls no factory for a result that ended first")
    func conditionalAndDeferredStop() {
        let branches = Counter(), factories = Counter()
        Signal<Int>.if(Signal<Bool>.error(TestError()), then: Self.counted(branches), else: Self.counted(branches)).subscribe()
        Signal<Int>.defer {
            factories.increment()
            return Self.counted(branches)
        }
        .takeUntil(Signal<Void>.empty()).subscribe()
        #expect(branches.count == 0)
        #expect(factories.count == 0)
    }

    @Test("O38: retry subscribes no more once the result has ended during an attempt")
    func retryStops() {
        let attempts = Counter()
        let source = Signal<Int> { subscriber in
            attempts.increment()
            subscriber.sendNext(attempts.count)
            subscriber.sendError(TestError())
            return nil
        }
        source.retry().take(2).subscribe()
        #expect(attempts.count == 2)
    }

    /// Operators with one source that pass its first value on at once: ending the result
    /// with that value must end the subscription to the source before the source's creation
    /// block sends anything more.
    static let passThrough: [OperatorContractTests.Case] = OperatorContractTests.operators.filter {
        !OperatorRegistry.holdsFirstValueBack.contains($0.name)
    }

    @Test("O38: the source's subscription has ended as soon as the result ends, while the source is still sending",
          arguments: passThrough)
    func sourceEndsWithTheResult(_ operation: OperatorContractTests.Case) {
        let scheduler = TestScheduler()
        let sendsAfterEnd = Counter()
        let source = Signal<Int> { subscriber in
            subscriber.sendNext(1)
            for value in 2...3 {
                if !subscriber.isDisposed { sendsAfterEnd.increment() }
                subscriber.sendNext(value)
            }
            return nil
        }
        let values = Log<Int>()
        operation.apply(source, scheduler).take(1).subscribeNext { values.append($0) }
        #expect(values.items.count == 1)
        #expect(sendsAfterEnd.count == 0)
    }
}
