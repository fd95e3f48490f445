import SignalScopeTools

// kept-alive-by-signal speaks when what keeps an object outlived its purpose: nothing the
// program still uses reaches the object but a signal's subscriber list. A screen that
// observes the app's bus until it closes, and is dismissed without saying it closed, stays
// alive for as long as the bus runs; the same screen that says it closed is freed.

final class ChatScreen {
    let closed = Subject<Void>()
    var unread = 0

    /// Observes the bus until `closed`; the disposable is not needed, the trigger ends it.
    func open() {
        AppEvents.bus.takeUntil(closed).subscribeNext { _ in self.unread += 1 }
    }

    func close() {
        closed.sendNext(())
        closed.sendCompleted()
    }
}

extension LeakCorpus {
    static let outlivedOwnerScenarios: [(name: String, run: @Sendable () -> CorpusOutcome)] = [
        ("a screen dismissed without ending what it observes until it closes", { chat(closes: false) }),
        ("a screen that ends what it observes when it closes", { chat(closes: true) }),
    ]

    private static func chat(closes: Bool) -> CorpusOutcome {
        let (trace, survived) = recordWatching {
            let screen = ChatScreen()
            screen.open()
            if closes { screen.close() }
            return screen
        }
        return CorpusOutcome(
            trace: trace, expected: closes ? [] : [Expected(rule: .keptAliveBySignal, line: 14)],
            watched: Watched(survived: survived, shouldSurvive: !closes))
    }
}
