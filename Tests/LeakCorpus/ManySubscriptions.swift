import SignalScopeTools

// One leak made of many subscriptions: a feed screen that subscribes to the app's feed
// updates for every row it configures, each observer capturing the screen, and drops every
// disposable. The feed service keeps its subject for the whole run and never completes
// it, so the subscriptions never end, and they keep the dropped screen alive. However many
// subscriptions it takes, it is one leak made at one line, reported once; the test in
// SignalScopeAnalysisTests asserts that its finding's path stays short. Expected lines are
// this file's: keep its declarations where they are.

/// The app's feed service: a new post's id, for as long as the app runs.
final class FeedUpdates {
    let posts = Subject<Int>()
}

final class FeedScreen {
    /// How many rows the screen configures: one subscription each.
    static let count = 2_000

    let updates: FeedUpdates
    let bag = CompoundDisposable()
    var unread = 0

    init(updates: FeedUpdates) { self.updates = updates }

    func configureRowsCapturingSelf() {
        for _ in 0..<Self.count {
            updates.posts.subscribeNext { _ in self.unread += 1 }
        }
    }

    /// The fix: each row's subscription captures the screen weakly and is ended with it.
    func configureRowsWeakly() {
        for _ in 0..<Self.count {
            bag.add(updates.posts.subscribeNext { [weak self] _ in self?.unread += 1 })
        }
    }

    deinit { bag.dispose() }
}

extension LeakCorpus {
    static let manySubscriptionScenarios: [(name: String, run: @Sendable () -> CorpusOutcome)] = [
        ("a dismissed feed screen subscribed 2,000 times to the app's feed, capturing itself, each disposable dropped", {
            feedRows(FeedScreen.configureRowsCapturingSelf, leakAt: 28)
        }),
        ("a dismissed feed screen subscribed 2,000 times weakly, each subscription ended with it", {
            feedRows(FeedScreen.configureRowsWeakly, leakAt: nil)
        }),
    ]

    /// The feed service is the app's, alive for its whole run; the scenario drops the screen.
    private static func feedRows(_ configure: (FeedScreen) -> () -> Void, leakAt line: Int?) -> CorpusOutcome {
        let updates = FeedUpdates()
        let (trace, survived) = recordWatching {
            let screen = FeedScreen(updates: updates)
            configure(screen)()
            updates.posts.sendNext(1)
            return screen
        }
        withExtendedLifetime(updates) {}
        return CorpusOutcome(
            trace: trace, expected: line.map { [Expected(rule: .leakedSubscription, line: $0)] } ?? [],
            watched: Watched(survived: survived, shouldSurvive: line != nil))
    }
}
