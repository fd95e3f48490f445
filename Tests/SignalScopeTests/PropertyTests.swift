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
