import SignalScopeTools

// repeated-cold-subscription speaks only with evidence: two subscriptions alive at once
// that each ran work of their own (sent a value no delivery caused, or a timer the factory
// starts). A custom operator written as a `Signal { }` block only forwards what its source
// sends; a view model that subscribes again after its last subscription ended re-runs on
// purpose.

extension Signal {
    /// Each value with the one before it: a custom operator, as users write one.
    func pairs() -> Signal<(Value, Value)> {
        Signal<(Value, Value)> { subscriber in
            var last: Value?
            return self.subscribe(
                next: { value in
                    if let last { subscriber.sendNext((last, value)) }
                    last = value
                },
                error: { subscriber.sendError($0) },
                completed: { subscriber.sendCompleted() })
        }
    }
}

final class TypingViewModel {
    let query = MutableProperty("")
    var edits = 0
    var disposables: [Disposable] = []

    func bind() {
        let changes = query.signal.pairs()
        disposables.append(changes.subscribeNext { [weak self] _ in self?.edits += 1 })
        disposables.append(changes.map { $0.1.count - $0.0.count }.subscribeNext { [weak self] _ in self?.edits += 1 })
    }
}

final class ActivatedViewModel {
    let refresh: Signal<Int>
    var loads = 0
    var disposable: Disposable?

    init(on scheduler: TestScheduler) {
        refresh = Signal { subscriber in
            scheduler.schedule { subscriber.sendNext(1) }
        }
    }

    func becomeActive() { disposable = refresh.subscribeNext { [weak self] in self?.loads += $0 } }
    func resignActive() { disposable?.dispose() }
}

extension LeakCorpus {
    static let coldEvidenceScenarios: [(name: String, run: @Sendable () -> CorpusOutcome)] = [
        ("a custom operator written as a Signal block, subscribed by two outputs", typing),
        ("a view model subscribing again each time it becomes active", reactivated),
        ("a request subscribed twice at once, both sending", requestsAtOnce),
    ]

    private static func typing() -> CorpusOutcome {
        let model = TypingViewModel()
        let trace = Tracer.record {
            model.bind()
            model.query.value = "s"
            model.query.value = "sw"
        }
        return CorpusOutcome(trace: trace, expected: [])
    }

    private static func reactivated() -> CorpusOutcome {
        let scheduler = TestScheduler()
        let model = ActivatedViewModel(on: scheduler)
        let trace = Tracer.record {
            for _ in 0..<3 {
                model.becomeActive()
                scheduler.run()
                model.resignActive()
            }
        }
        return CorpusOutcome(trace: trace, expected: [])
    }

    private static func requestsAtOnce() -> CorpusOutcome {
        let start = #line
        let scheduler = TestScheduler()
        let trace = Tracer.record {
            let request = Signal<Int> { subscriber in
                scheduler.schedule {
                    subscriber.sendNext(200)
                    subscriber.sendCompleted()
                }
            }
            request.subscribeNext { _ in }
            request.subscribeNext { _ in }
            scheduler.run()
        }
        return CorpusOutcome(trace: trace, expected: [Expected(rule: .repeatedColdSubscription, line: start + 3)])
    }
}
