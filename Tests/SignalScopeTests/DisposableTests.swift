import Dispatch
import SignalScopeTools
import Testing

@Suite("Disposables", .timeLimit(.minutes(10)))
struct DisposableTests {
    @Test("D1: a disposable runs its action once, even when disposed from many threads at once")
    func runsOnce() {
        for _ in 0..<100 {
            let runs = Counter()
            let disposable = Disposable { runs.increment() }
            #expect(!disposable.isDisposed)
            DispatchQueue.concurrentPerform(iterations: 8) { _ in disposable.dispose() }
            #expect(runs.count == 1)
            #expect(disposable.isDisposed)
        }
    }

    @Test("D1: a disposable releases its action after running it")
    func releasesAction() {
        let (disposable, probe) = CaptureProbe.attach { capture in Disposable { _ = capture } }
        #expect(!probe.isReleased)
        disposable.dispose()
        #expect(probe.isReleased)
    }

    @Test("D2: a compound disposes its children in order; remove takes one out without disposing it")
    func compound() {
        let order = Log<String>()
        let a = Disposable { order.append("a") }
        let b = Disposable { order.append("b") }
        let c = Disposable { order.append("c") }
        let compound = CompoundDisposable([a])
        compound.add(b)
        compound.add(c)
        compound.add(nil)
        compound.remove(b)
        compound.dispose()
        #expect(order.items == ["a", "c"])
        #expect(!b.isDisposed)
    }

    @Test("D2: adding to a disposed compound disposes the new child at once")
    func compoundAfterDispose() {
        let compound = CompoundDisposable()
        compound.dispose()
        let late = Disposable {}
        compound.add(late)
        #expect(late.isDisposed)
    }

    @Test("D3: a serial disposable disposes the inner it replaces, and anything assigned after disposal")
    func serial() {
        let serial = SerialDisposable()
        let first = Disposable {}
        let second = Disposable {}
        serial.inner = first
        serial.inner = second
        #expect(first.isDisposed)
        #expect(!second.isDisposed)
        #expect(serial.inner === second)
        serial.dispose()
        #expect(second.isDisposed)
        let third = Disposable {}
        serial.inner = third
        #expect(third.isDisposed)
        #expect(serial.inner == nil)
    }

    @Test("D4: a scoped disposable disposes what it wraps when deinitialized")
    func scoped() {
        let inner = Disposable {}
        do {
            let scoped = inner.asScoped()
            #expect(!scoped.isDisposed)
            #expect(scoped.asScoped() === scoped)
        }
        #expect(inner.isDisposed)
    }

    @Test("D4: a scoped subscription ends when its owner goes away")
    func scopedSubscription() {
        final class Owner {
            var subscription: ScopedDisposable?
        }
        let subject = Subject<Int>()
        let received = Log<Int>()
        var owner: Owner? = Owner()
        owner?.subscription = subject.subscribeNext { received.append($0) }.asScoped()
        subject.sendNext(1)
        owner = nil
        subject.sendNext(2)
        #expect(received.items == [1])
    }
}
