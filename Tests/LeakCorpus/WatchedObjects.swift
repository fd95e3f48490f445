import SignalScopeTools

// Objects the app says should be gone (a dismissed screen): retained-after-release proves
// the one still alive with the chain that holds it; its fixed twin is freed and unreported.

final class DismissedScreen {
    var refreshes = 0
    var subscription: Disposable?

    /// Follows the app's bus, capturing self, and drops the disposable: the bus keeps it.
    func followCapturingSelf() { AppEvents.bus.subscribeNext { _ in self.refreshes += 1 } }
    func followWeakly() { subscription = AppEvents.bus.subscribeNext { [weak self] _ in self?.refreshes += 1 } }

    deinit { subscription?.dispose() }
}

extension LeakCorpus {
    static let watchedObjectScenarios: [(name: String, run: @Sendable () -> CorpusOutcome)] = [
        ("dismissed screen the app's bus keeps", { dismissed(DismissedScreen.followCapturingSelf, leaky: true) }),
        ("dismissed screen following the bus weakly", { dismissed(DismissedScreen.followWeakly, leaky: false) }),
    ]

    private static func dismissed(_ follow: (DismissedScreen) -> () -> Void, leaky: Bool) -> CorpusOutcome {
        weak var watched: DismissedScreen?
        let line = #line + 5
        let trace = Tracer.record {
            let screen = DismissedScreen()
            watched = screen
            follow(screen)()
            Tracer.expectDeallocationWhenRecordingEnds(of: screen, because: "DismissedScreen dismissed", site: SourceLocation(fileID: #fileID, line: #line, function: #function))
        }
        let expected = leaky
            ? [Expected(rule: .retainedAfterRelease, line: line), Expected(rule: .keptAliveBySignal, line: 11), Expected(rule: .leakedSubscription, line: 11)]
            : []
        return CorpusOutcome(trace: trace, expected: expected, watched: Watched(survived: watched != nil, shouldSurvive: leaky))
    }
}
