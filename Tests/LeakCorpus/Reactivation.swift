import SignalScopeTools

// A cold signal subscribed again after its last subscription ended runs its block again on
// purpose: a view model that forwards an input only while active, a request retried after
// it failed, a list refreshed once its last load completed. Each run does work of its own
// (its block sends values it made), but no two runs are alive at once for different
// subscriptions: nothing is repeated.

/// Forwards its input only while active (ReactiveViewModel's didBecomeActiveSignal).
final class TimelineViewModel {
    let input: Signal<Int>
    var shown: [Int] = []
    var forwarding: Disposable?

    init() {
        var generation = 0
        input = Signal { subscriber in
            generation += 1
            subscriber.sendNext(generation)
            return nil
        }
    }

    func didBecomeActive() {
        forwarding = input.subscribeNext { [weak self] in self?.shown.append($0) }
    }

    func didBecomeInactive() { forwarding?.dispose() }
}

/// Loads the feed, retrying once: the first attempt fails (an expired token), the second
/// succeeds.
final class FeedLoader {
    var items: [String] = []
    var failed = false
    /// What the server saw.
    var attempts = 0

    func load(on scheduler: TestScheduler) {
        let request = Signal<[String]> { [weak self] subscriber in
            guard let self else { return nil }
            self.attempts += 1
            let attempt = self.attempts
            return scheduler.schedule {
                if attempt == 1 {
                    subscriber.sendError(APIError())
                } else {
                    subscriber.sendNext(["first post", "second post"])
                    subscriber.sendCompleted()
                }
            }
        }
        request.retry(1).subscribe(
            next: { [weak self] in self?.items = $0 },
            error: { [weak self] _ in self?.failed = true })
    }
}

/// Pull to refresh: each refresh loads the mailbox again, from the same line, once the last
/// load completed.
final class MailboxViewModel {
    let messages: Signal<[String]>
    var shown: [String] = []
    var loading: Disposable?

    init(on scheduler: TestScheduler) {
        var received = 0
        messages = Signal { subscriber in
            received += 1
            let count = received
            return scheduler.schedule {
                subscriber.sendNext((1...count).map { "message \($0)" })
                subscriber.sendCompleted()
            }
        }
    }

    func refresh() {
        loading = messages.subscribeNext { [weak self] in self?.shown = $0 }
    }

    deinit { loading?.dispose() }
}

extension LeakCorpus {
    static let reactivationScenarios: [(name: String, run: @Sendable () -> CorpusOutcome)] = [
        ("a view model forwarding its input while active, activated three times", activatedTimeline),
        ("a request retried once after it failed", retriedFeed),
        ("a mailbox refreshed three times, each load completed before the next", refreshedMailbox),
    ]

    private static func activatedTimeline() -> CorpusOutcome {
        let (trace, survived) = recordWatching {
            let model = TimelineViewModel()
            model.didBecomeActive()
            model.didBecomeInactive()
            model.didBecomeActive()
            model.didBecomeInactive()
            model.didBecomeActive()
            return model
        }
        return CorpusOutcome(trace: trace, expected: [], watched: Watched(survived: survived, shouldSurvive: false))
    }

    private static func retriedFeed() -> CorpusOutcome {
        let scheduler = TestScheduler()
        let (trace, survived) = recordWatching {
            let loader = FeedLoader()
            loader.load(on: scheduler)
            scheduler.run()
            return loader
        }
        return CorpusOutcome(trace: trace, expected: [], watched: Watched(survived: survived, shouldSurvive: false))
    }

    private static func refreshedMailbox() -> CorpusOutcome {
        let scheduler = TestScheduler()
        let (trace, survived) = recordWatching {
            let model = MailboxViewModel(on: scheduler)
            for _ in 0..<3 {
                model.refresh()
                scheduler.run()
            }
            return model
        }
        return CorpusOutcome(trace: trace, expected: [], watched: Watched(survived: survived, shouldSurvive: false))
    }
}
