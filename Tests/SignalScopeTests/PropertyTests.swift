import SignalScopeTools
import SignalScopeTesting
import Testing

@Suite("Properties and lifetimes", .timeLimit(.minutes(10)))
struct PropertyTests {
    @Test("P1: value reads what was last set; signal sends the current value, then every change")
    func valueAndSignal() {
        let name = MutableProperty("")
        let observer = TestObserver(name.signal)
        name.value = "Ada"
        #expect(name.value == "Ada")
        name.value = "Grace"
        #expect(observer.values == ["", "Ada", "Grace"])
        #expect(TestObserver(name.signal).values == ["Grace"])
    }

    @Test("P1: value reads the new value at once, even when set from inside an observer")
    func valueInsideObserver() {
        let count = MutableProperty(0)
        var readBack: [Int] = []
        count.signal.subscribeNext { value in
            if value == 1 {
                count.value = 2
                readBack.append(count.value)
            }
        }
        count.value = 1
        #expect(readBack == [2])
        #expect(count.value == 2)
    }

    @Test("P2: a property's signal completes when the property is deinitialized, and does not keep it alive")
    func completesOnDeinit() {
        var property: MutableProperty<Int>? = MutableProperty(1)
        weak let weakProperty = property
        let observer = TestObserver(property!.signal)
        property = nil
        #expect(weakProperty == nil)
        #expect(observer.recordedEvents == [.next(1), .completed])
    }

    @Test("P3: bind(to:) sets the value from every next, until the source completes")
    func bindUntilCompleted() {
        let label = MutableProperty("")
        let text = Subject<String>()
        label.bind(to: text)
        text.sendNext("a")
        #expect(label.value == "a")
        text.sendCompleted()
        #expect(label.value == "a")
    }

    @Test("P3: disposing a binding stops it; an error ends it without changing the value")
    func bindDisposeAndError() {
        let label = MutableProperty(0)
        let source = Subject<Int>()
        let binding = label.bind(to: source)
        source.sendNext(1)
        binding.dispose()
        source.sendNext(2)
        #expect(label.value == 1)

        let failing = Subject<Int>()
        label.bind(to: failing)
        failing.sendError(TestError())
        #expect(label.value == 1)
    }

    @Test("P3: a binding does not keep the property alive, and ends when the property goes away")
    func bindingHoldsPropertyWeakly() {
        let source = Subject<Int>()
        weak var weakProperty: MutableProperty<Int>?
        let binding: Disposable
        do {
            let property = MutableProperty(0)
            weakProperty = property
            binding = property.bind(to: source)
            source.sendNext(5)
            #expect(property.value == 5)
        }
        #expect(weakProperty == nil)
        #expect(binding.isDisposed)
        let observer = TestObserver(source)
        source.sendNext(6)
        #expect(observer.values == [6])
    }

    @Test("P4: changes sends every later value and never the current one; signal sends the current one first")
    func changesAndSignal() {
        let name = MutableProperty("a")
        let changes = TestObserver(name.changes)
        let signal = TestObserver(name.signal)
        name.value = "b"
        #expect(changes.values == ["b"])
        #expect(signal.values == ["a", "b"])
        let derived = Property(initial: "", then: name.signal)
        let derivedChanges = TestObserver(derived.changes)
        name.value = "c"
        #expect(derivedChanges.values == ["c"])
    }

    @Test("P4: changes completes when the property is deinitialized, without a value, also for a late subscriber")
    func changesCompletes() {
        var property: MutableProperty<Int>? = MutableProperty(1)
        let changes = property!.changes
        let early = TestObserver(changes)
        property = nil
        #expect(early.recordedEvents == [.completed])
        #expect(TestObserver(changes).recordedEvents == [.completed])
    }

    @Test("P5: Property(_:) reads and observes a mutable property and keeps it alive; it cannot set it")
    func readOnlyView() {
        weak var weakSource: MutableProperty<Int>?
        let view: Property<Int>
        do {
            let source = MutableProperty(1)
            weakSource = source
            view = Property(source)
            source.value = 2
        }
        #expect(view.value == 2)
        #expect(TestObserver(view.signal).values == [2])
        weakSource?.value = 3
        #expect(view.value == 3, "the view keeps its source alive")
        let doubled = view.map { $0 * 2 }
        let observer = TestObserver(doubled.signal)
        weakSource?.value = 4
        #expect(doubled.value == 8)
        #expect(observer.values == [6, 8])
    }

    @Test("P5: Property(value:) is constant: signal sends it and completes, changes completes at once")
    func constantProperty() {
        let constant = Property(value: 42)
        #expect(constant.value == 42)
        #expect(TestObserver(constant.signal).recordedEvents == [.next(42), .completed])
        #expect(TestObserver(constant.changes).recordedEvents == [.completed])
    }

    @Test("P5: Property(initial:then:) follows its signal, and its subscription ends with the property")
    func propertyFollowingASignal() {
        let source = Subject<Int>()
        var property: Property<Int>? = Property(initial: 0, then: source)
        weak let weakProperty = property
        #expect(property?.value == 0)
        source.sendNext(5)
        #expect(property?.value == 5)
        let observer = TestObserver(property!.signal)
        property = nil
        #expect(weakProperty == nil)
        #expect(observer.recordedEvents == [.next(5), .completed])
        let late = TestObserver(source)
        source.sendNext(6)
        #expect(late.values == [6], "the subscription to the source ended with the property")
    }

    @Test("L1: a lifetime ends when its token is deinitialized, and tells late subscribers at once")
    func lifetime() {
        var made: (lifetime: Lifetime, token: Lifetime.Token)? = Lifetime.make()
        let lifetime = made!.lifetime
        let early = TestObserver(lifetime.ended)
        #expect(!lifetime.hasEnded)
        #expect(early.recordedEvents.isEmpty)
        made = nil
        #expect(lifetime.hasEnded)
        #expect(early.eventCount == 2)
        #expect(early.isCompleted)
        let late = TestObserver(lifetime.ended)
        #expect(late.eventCount == 2)
        #expect(late.isCompleted)
    }
}
