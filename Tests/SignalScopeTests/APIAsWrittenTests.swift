import Foundation
import SignalScopeTools
import Testing

/// The runtime API exactly as the foundation issue and the README write it, used as a user
/// would. If a name or signature drifts, this file stops compiling.
@Suite("The API as written", .timeLimit(.minutes(10)))
struct APIAsWrittenTests {
    struct SomeError: Error {}

    @Test("The README's runtime tour compiles and behaves as described")
    func runtimeTour() {
        var log: [String] = []
        let someSubject = Subject<Int>()
        let someSignal = Signal<Int>.just(9)

        // Cold signal (RAC +createSignal:). The block runs once per subscription.
        let s = Signal<Int> { subscriber in
            subscriber.sendNext(1)
            subscriber.sendCompleted()
            return Disposable { /* cleanup */ }      // or nil
        }
        let d: Disposable = s.subscribe(next: { v in log.append("next \(v)") }, error: { e in }, completed: { log.append("completed") })   // every label optional
        s.subscribeNext { v in }
        s.subscribe(someSubject)                     // forward all events into any SubscriberProtocol (e.g. a Subject)
        _ = (Signal<Int>.just(1), Signal<Int>.empty(), Signal<Int>.never(), Signal<Int>.error(SomeError()))

        // Hot signals. A subject IS a Signal (subclass), so `let x: Signal<Int> = subject` compiles.
        let subject = Subject<Int>()                 // RACSubject
        let replay = ReplaySubject<Int>(capacity: 2) // RACReplaySubject; default capacity unlimited
        let behavior = BehaviorSubject<Int>(0)       // RACBehaviorSubject
        let e = SomeError()
        subject.sendNext(1); subject.sendError(e); subject.sendCompleted()
        let x: Signal<Int> = subject

        // Disposables
        let a = Disposable { log.append("disposed") }     // runs its action once, thread-safely
        a.dispose(); _ = a.isDisposed
        let c = CompoundDisposable(); c.add(a); c.remove(a)
        let serial = SerialDisposable(); serial.inner = a   // disposes the previous inner
        let scoped = a.asScoped()                    // ScopedDisposable: disposes on deinit

        // Schedulers
        _ = (ImmediateScheduler(), QueueScheduler.main, QueueScheduler(label: "work"))
        let t = TestScheduler(); t.advance(by: 1.5); t.run()   // virtual time, for tests
        let scheduler: any Scheduler = t
        _ = (scheduler.schedule {}, scheduler.schedule(after: t.now) {}, scheduler.schedule(after: t.now, interval: 1) {})

        // Properties (RACObserve / RAC(...) analogs)
        let p = MutableProperty(0)
        p.value = 3
        _ = p.signal          // Signal<Int>: sends the current value on subscribe, then every change; completes when p deallocates
        p.bind(to: someSignal)   // RAC(self, prop) = signal; returns Disposable

        // Lifetimes (rac_willDeallocSignal analog)
        let (lifetime, token) = Lifetime.make()     // lifetime.ended: Signal<Void> fires when token deallocates

        #expect(log == ["next 1", "completed", "disposed"])
        #expect(d.isDisposed)
        #expect(p.value == 9)
        _ = (replay, behavior, x, scoped, lifetime, token)
    }
}
