import SignalScopeTools

// The articles' first trap: a cold signal runs its block for every subscription, so two
// consumers of one signal each trigger its side effects (a log line, a request), even one
// after the other, the first run over before the second starts: both wanted the one
// result. The fix shares one run (`replay()`). One consumer that loads again from the same
// line once its last load ended (a refresh) runs the block again on purpose. Expected
// lines are this file's: keep its declarations where they are.

/// A profile page: its header and its list both show the user's profile.
final class ProfilePageViewModel {
    var headerName = ""
    var listNames: [String] = []
    /// What the server saw.
    var requests = 0

    func profileRequest(on scheduler: TestScheduler) -> Signal<String> {
        Signal<String> { [weak self] subscriber in
            self?.requests += 1
            scheduler.schedule {
                subscriber.sendNext("Ada")
                subscriber.sendCompleted()
            }
            return nil
        }
    }

    func showHeader(from profile: Signal<String>) {
        profile.subscribeNext { [weak self] in self?.headerName = $0 }
    }

    func showList(from profile: Signal<String>) {
        profile.subscribeNext { [weak self] in self?.listNames = [$0] }
    }
}

extension LeakCorpus {
    static let coldTrapScenarios: [(name: String, run: @Sendable () -> CorpusOutcome)] = [
        ("the articles' cold signal subscribed by two consumers, one after the other", { articleSignal(replayed: false) }),
        ("the articles' cold signal shared with replay by two consumers", { articleSignal(replayed: true) }),
        ("the articles' cold signal loaded three times from one line", articleSignalReloaded),
        ("a profile request subscribed by the header, then by the list once the response came", { profilePage(sharing: false) }),
        ("a profile request shared with replay by the header and the list", { profilePage(sharing: true) }),
    ]

    /// Ground truth: the block's log says whether it ran for each consumer.
    private static func articleSignal(replayed: Bool) -> CorpusOutcome {
        let start = #line
        var log: [String] = []
        let trace = Tracer.record {
            let created = Signal<Int> { subscriber in
                log.append("triggered")
                subscriber.sendNext(1)
                subscriber.sendCompleted()
                return nil
            }
            let signal = replayed ? created.replay() : created
            signal.subscribeNext { log.append("first consumer got \($0)") }
            signal.subscribeNext { log.append("second consumer got \($0)") }
        }
        return CorpusOutcome(
            trace: trace, expected: replayed ? [] : [Expected(rule: .repeatedColdSubscription, line: start + 3)],
            watched: Watched(survived: log.filter { $0 == "triggered" }.count > 1, shouldSurvive: !replayed))
    }

    /// A refresh: one consumer, the same line each time, each load over before the next.
    private static func articleSignalReloaded() -> CorpusOutcome {
        var log: [String] = []
        let trace = Tracer.record {
            let signal = Signal<Int> { subscriber in
                log.append("triggered")
                subscriber.sendNext(1)
                subscriber.sendCompleted()
                return nil
            }
            func load() { signal.subscribeNext { log.append("loaded \($0)") } }
            for _ in 0..<3 { load() }
        }
        return CorpusOutcome(trace: trace, expected: [])
    }

    /// Ground truth: how many requests the server saw.
    private static func profilePage(sharing: Bool) -> CorpusOutcome {
        let scheduler = TestScheduler()
        let model = ProfilePageViewModel()
        let trace = Tracer.record {
            let request = model.profileRequest(on: scheduler)
            let profile = sharing ? request.replay() : request
            model.showHeader(from: profile)
            scheduler.run()
            model.showList(from: profile)
            scheduler.run()
        }
        return CorpusOutcome(
            trace: trace, expected: sharing ? [] : [Expected(rule: .repeatedColdSubscription, line: 18)],
            watched: Watched(survived: model.requests > 1, shouldSurvive: !sharing))
    }
}
