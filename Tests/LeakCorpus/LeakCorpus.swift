import SignalScopeTools

// The leak corpus: small scenarios written as an app would, each leaky (with the findings it
// must produce: rule and line) or clean (none). Each records itself with Tracer.record.
// The scenarios of one class of leak share a file, and each leaky one has a fixed twin;
// expected lines are those of the file, so keep its declarations where they are.

final class SearchViewModel {
    let query = MutableProperty("")
    var validated = false
    var disposable: Disposable?

    /// RACObserve(self, query) with self captured: leaks.
    func observeCapturingSelf() { query.signal.subscribeNext { _ in self.validated = true } }
    func observeWeakly() { query.signal.subscribeNext { [weak self] _ in self?.validated = true } }
    func observeUnowned() { query.signal.subscribeNext { [unowned self] _ in self.validated = true } }

    /// Self reached through a nested closure, a captured struct, and a boxed var: all leak.
    func observeThroughNestedClosure() {
        let mark = { self.validated = true }
        query.signal.subscribeNext { _ in mark() }
    }

    struct Context {
        let model: SearchViewModel
    }

    func observeThroughStruct() {
        let context = Context(model: self)
        query.signal.subscribeNext { _ in context.model.validated = true }
    }

    func observeThroughVar() {
        var target: SearchViewModel?
        query.signal.subscribeNext { _ in target?.validated = true }
        target = self
    }

    /// A finite signal: completion releases self.
    func loadOnce() { Signal.just(1).subscribeNext { _ in self.validated = true } }

    /// `self.disposable = infinite.subscribeNext { self }`: leaks.
    func poll(on scheduler: TestScheduler) {
        disposable = Signal.interval(1, on: scheduler).subscribeNext { _ in self.validated = true }
    }
}

final class Listener {
    var count = 0
}

final class Button {
    let taps = Subject<Void>()
    // A control's event signal completes when the control goes away (RAC's
    // rac_signalForControlEvents does), ending what still observes it.
    deinit { taps.sendCompleted() }
}

final class ReusableCell {
    let button = Button()
    let reuse = Subject<Void>()
    var title = ""

    /// Subscribes on every configure and never ends the old subscriptions.
    func configure(_ text: String) { button.taps.subscribeNext { _ in self.title = text } }

    func prepareForReuse() { reuse.sendNext(()) }

    func configureUntilReuse(_ text: String) {
        button.taps.takeUntil(reuse).subscribeNext { [weak self] _ in self?.title = text }
    }
}

final class ErrorsViewModel {
    let errors = Subject<String>()
    deinit { errors.sendCompleted() }
}

final class Partner {
    let name = MutableProperty("")
    var other: Partner?
}

enum AppEvents {
    /// A subject a global holds for the whole run, never completed: not an error.
    static let bus = Subject<String>()
}

struct APIError: Error {}

/// One scenario's trace, and what it must produce.
public struct CorpusOutcome {
    public let trace: Trace
    public let file: String
    public let expected: [Expected]
    public let watched: Watched?

    init(trace: Trace, expected: [Expected], watched: Watched? = nil, file: String = #fileID) {
        self.trace = trace
        self.expected = expected
        self.watched = watched
        self.file = file
        findings = trace.analyze().findings.filter { $0.location.file == file }
    }

    public struct Expected: Hashable, CustomStringConvertible {
        public let rule: RuleID
        public let line: Int
        public var description: String { "\(rule)@\(line)" }

        public init(rule: RuleID, line: Int) {
            self.rule = rule
            self.line = line
        }
    }

    /// The ground truth: whether a weak reference to the object the scenario is about still
    /// saw it once the scenario's scope had ended, and whether it should have.
    public struct Watched {
        public let survived: Bool
        public let shouldSurvive: Bool
    }

    /// The findings located in this scenario's file: the trace reports only what the
    /// scenario made, and no other suite makes anything in the corpus's files. Analysed once,
    /// when the scenario ends: every test of the corpus reads them.
    public let findings: [Finding]
}

public enum LeakCorpus {
    typealias Expected = CorpusOutcome.Expected
    typealias Watched = CorpusOutcome.Watched

    public static let scenarios: [(name: String, run: @Sendable () -> CorpusOutcome)] = coreScenarios + operatorClosureScenarios + commandBlockScenarios + creationBlockScenarios
        + containerScenarios + cycleScenarios + heldDisposableScenarios + plainObjectCycleScenarios + genericHelperScenarios
        + recycledBindingScenarios + coldEvidenceScenarios + watchedObjectScenarios
        + keyValuePublisherScenarios + navigationStackScenarios + methodReferenceScenarios + sharedStateScenarios
        + globalOwnerScenarios + coldTrapScenarios + reactivationScenarios + manySubscriptionScenarios
        + outlivedOwnerScenarios + controlEventScenarios + growthScenarios

    static let coreScenarios: [(name: String, run: @Sendable () -> CorpusOutcome)] = [
        ("RACObserve capturing self", observeCapturingSelf),
        ("RACObserve with [weak self]", observeWeakly),
        ("RACObserve with [unowned self]", observeUnowned),
        ("self through a nested closure", nestedClosure),
        ("self through a captured struct", capturedStruct),
        ("self through a var box", varBox),
        ("finite signal capturing self", finiteSignal),
        ("self.disposable = infinite.subscribeNext { self }", infiniteWithDisposable),
        ("subject never completed", subjectNeverCompleted),
        ("errors subject completed in deinit", errorsCompletedInDeinit),
        ("cell subscribing on every configure", cellWithoutTakeUntil),
        ("cell subscribing until reuse", cellWithTakeUntil),
        ("subject held by a global, never completed", globalSubject),
        ("object kept alive by a live subscription", keptAlive),
        ("two properties observing each other", propertyCycle),
        ("cold signal subscribed again after it completed", coldTwice),
        ("defer subscribed twice", deferTwice),
        ("interval subscribed twice", intervalTwice),
        ("error with no handler", errorWithoutHandler),
        ("event after completed", eventAfterCompleted),
        ("two properties observing each other weakly", propertyCycleBrokenWeakly),
        ("object captured by a disposed subscription", disposedCapture),
        ("cold signal shared with replay", coldShared),
        ("handled error", handledError),
        ("completed once", completedOnce),
    ]

    /// Records what `make` does, then reads through a weak reference whether the object it
    /// made outlived the recording.
    static func recordWatching<Object: AnyObject>(_ make: () -> Object) -> (trace: Trace, survived: Bool) {
        weak var watched: Object?
        let trace = Tracer.record { watched = make() }
        return (trace, watched != nil)
    }

    static func observeCapturingSelf() -> CorpusOutcome {
        let trace = Tracer.record { SearchViewModel().observeCapturingSelf() }
        return CorpusOutcome(trace: trace, expected: [Expected(rule: .selfCapturedObserver, line: 14)])
    }

    static func observeWeakly() -> CorpusOutcome {
        CorpusOutcome(trace: Tracer.record { withExtendedLifetime(SearchViewModel()) { $0.observeWeakly() } }, expected: [])
    }

    static func observeUnowned() -> CorpusOutcome {
        CorpusOutcome(trace: Tracer.record { SearchViewModel().observeUnowned() }, expected: [])
    }

    static func nestedClosure() -> CorpusOutcome {
        let trace = Tracer.record { SearchViewModel().observeThroughNestedClosure() }
        return CorpusOutcome(trace: trace, expected: [Expected(rule: .selfCapturedObserver, line: 21)])
    }

    static func capturedStruct() -> CorpusOutcome {
        let trace = Tracer.record { SearchViewModel().observeThroughStruct() }
        return CorpusOutcome(trace: trace, expected: [Expected(rule: .selfCapturedObserver, line: 30)])
    }

    static func varBox() -> CorpusOutcome {
        let trace = Tracer.record { SearchViewModel().observeThroughVar() }
        return CorpusOutcome(trace: trace, expected: [Expected(rule: .selfCapturedObserver, line: 35)])
    }

    static func finiteSignal() -> CorpusOutcome {
        CorpusOutcome(trace: Tracer.record { SearchViewModel().loadOnce() }, expected: [])
    }

    static func infiniteWithDisposable() -> CorpusOutcome {
        // The scheduler outlives the scenario, as the main queue would.
        let scheduler = TestScheduler()
        let trace = Tracer.record { SearchViewModel().poll(on: scheduler) }
        return CorpusOutcome(trace: trace, expected: [Expected(rule: .selfCapturedObserver, line: 44)])
    }

    static func subjectNeverCompleted() -> CorpusOutcome {
        let start = #line
        let trace = Tracer.record {
            let updates = Subject<Int>()
            let listener = Listener()
            updates.subscribeNext { _ in listener.count += 1 }
            updates.sendNext(1)
        }
        return CorpusOutcome(trace: trace, expected: [Expected(rule: .neverCompletedSubject, line: start + 2)])
    }

    static func errorsCompletedInDeinit() -> CorpusOutcome {
        let trace = Tracer.record {
            let model = ErrorsViewModel()
            model.errors.subscribeNext { _ in }
            model.errors.sendNext("offline")
        }
        return CorpusOutcome(trace: trace, expected: [])
    }

    static func cellWithoutTakeUntil() -> CorpusOutcome {
        let table = [ReusableCell()]
        let trace = Tracer.record {
            for text in ["a", "b", "c"] { table[0].configure(text) }
        }
        return CorpusOutcome(trace: trace, expected: [Expected(rule: .leakedSubscription, line: 65)])
    }

    static func cellWithTakeUntil() -> CorpusOutcome {
        let table = [ReusableCell()]
        let trace = Tracer.record {
            for text in ["a", "b", "c"] {
                table[0].prepareForReuse()
                table[0].configureUntilReuse(text)
            }
        }
        return CorpusOutcome(trace: trace, expected: [])
    }

    static func globalSubject() -> CorpusOutcome {
        let start = #line
        let trace = Tracer.record {
            AppEvents.bus.subscribeNext { print("event:", $0) }
        }
        return CorpusOutcome(trace: trace, expected: [Expected(rule: .leakedSubscription, line: start + 2)])
    }

    static func keptAlive() -> CorpusOutcome {
        let start = #line
        let clicks = Subject<Int>()
        let trace = Tracer.record {
            let listener = Listener()
            let subscription = clicks.subscribeNext { _ in listener.count += 1 }
            _ = subscription
        }
        return CorpusOutcome(
            // One leak, one finding: the dropped subscription, which keeps the listener alive
            // with it (a kept-alive-by-signal warning about the listener said it again).
            trace: trace, expected: [Expected(rule: .leakedSubscription, line: start + 4)])
    }

    static func propertyCycle() -> CorpusOutcome {
        let start = #line
        let trace = Tracer.record {
            let alice = Partner()
            let bob = Partner()
            alice.name.signal.subscribeNext { _ in bob.other = nil }
            bob.name.signal.subscribeNext { _ in alice.other = nil }
        }
        // The cycle is closed by the later binding, whose observer captures the older
        // partner: the reference back to the object the others were made after.
        return CorpusOutcome(trace: trace, expected: [Expected(rule: .retainCycle, line: start + 5)])
    }

    /// The RAC articles' first cold signal: two consumers, one after the other, from two
    /// places in the code: the block's work ran twice. (This scenario expected no finding
    /// while the rule required runs alive at the same time; two consumers repeat the work
    /// whenever they subscribe.)
    static func coldTwice() -> CorpusOutcome {
        let start = #line
        let trace = Tracer.record {
            let request = Signal<Int> { subscriber in
                subscriber.sendNext(1)
                subscriber.sendCompleted()
                return nil
            }
            request.subscribeNext { _ in }
            request.subscribeNext { _ in }
        }
        return CorpusOutcome(trace: trace, expected: [Expected(rule: .repeatedColdSubscription, line: start + 2)])
    }

    /// `defer` runs its factory for every subscription, as a creation block does: two at
    /// once, each waiting for its own response.
    static func deferTwice() -> CorpusOutcome {
        let start = #line
        let scheduler = TestScheduler()
        let trace = Tracer.record {
            let request = Signal.defer { Signal.just(1).delay(1, on: scheduler) }
            request.subscribeNext { _ in }
            request.subscribeNext { _ in }
            scheduler.run()
        }
        return CorpusOutcome(trace: trace, expected: [Expected(rule: .repeatedColdSubscription, line: start + 3)])
    }

    /// Each subscription to `interval` starts a timer of its own.
    static func intervalTwice() -> CorpusOutcome {
        let start = #line
        let scheduler = TestScheduler()
        let trace = Tracer.record {
            let ticks = Signal.interval(1, on: scheduler)
            ticks.take(2).subscribeNext { _ in }
            ticks.take(2).subscribeNext { _ in }
            scheduler.advance(by: 3)
        }
        return CorpusOutcome(trace: trace, expected: [Expected(rule: .repeatedColdSubscription, line: start + 3)])
    }

    static func errorWithoutHandler() -> CorpusOutcome {
        let start = #line
        let trace = Tracer.record {
            Signal<Int>.error(APIError()).subscribeNext { _ in }
        }
        return CorpusOutcome(trace: trace, expected: [Expected(rule: .unhandledError, line: start + 2)])
    }

    static func eventAfterCompleted() -> CorpusOutcome {
        let start = #line
        let trace = Tracer.record {
            let done = Subject<Int>()
            done.sendCompleted()
            done.sendNext(1)
        }
        return CorpusOutcome(trace: trace, expected: [Expected(rule: .eventAfterTerminal, line: start + 4)])
    }

    static func propertyCycleBrokenWeakly() -> CorpusOutcome {
        let trace = Tracer.record {
            let alice = Partner()
            let bob = Partner()
            alice.name.signal.subscribeNext { [weak bob] _ in bob?.other = nil }
            bob.name.signal.subscribeNext { [weak alice] _ in alice?.other = nil }
        }
        return CorpusOutcome(trace: trace, expected: [])
    }

    static func disposedCapture() -> CorpusOutcome {
        let clicks = Subject<Int>()
        let trace = Tracer.record {
            let listener = Listener()
            clicks.subscribeNext { _ in listener.count += 1 }.dispose()
        }
        return CorpusOutcome(trace: trace, expected: [])
    }

    static func coldShared() -> CorpusOutcome {
        let trace = Tracer.record {
            let request = Signal<Int> { subscriber in
                subscriber.sendNext(1)
                subscriber.sendCompleted()
                return nil
            }.replay()
            request.subscribeNext { _ in }
            request.subscribeNext { _ in }
        }
        return CorpusOutcome(trace: trace, expected: [])
    }

    static func handledError() -> CorpusOutcome {
        let trace = Tracer.record {
            Signal<Int>.error(APIError()).subscribe(next: { _ in }, error: { _ in })
        }
        return CorpusOutcome(trace: trace, expected: [])
    }

    static func completedOnce() -> CorpusOutcome {
        let trace = Tracer.record {
            let done = Subject<Int>()
            done.sendNext(1)
            done.sendCompleted()
        }
        return CorpusOutcome(trace: trace, expected: [])
    }
}
