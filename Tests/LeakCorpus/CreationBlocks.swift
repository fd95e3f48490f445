import SignalScopeTools

// A signal keeps its creation block for as long as it lives, to run it on every
// subscription: a signal stored on the object its block captures keeps that object alive.

final class ConnectivityMonitor {
    var isReachable = true
    var isActive: Signal<Bool>?

    func makeActiveCapturingSelf() {
        isActive = Signal { subscriber in
            subscriber.sendNext(self.isReachable)
            subscriber.sendCompleted()
            return nil
        }
    }

    func makeActiveWeakly() {
        isActive = Signal { [weak self] subscriber in
            subscriber.sendNext(self?.isReachable ?? false)
            subscriber.sendCompleted()
            return nil
        }
    }
}

extension LeakCorpus {
    static let creationBlockScenarios: [(name: String, run: @Sendable () -> CorpusOutcome)] = [
        ("signal creation block stored on the object it captures", creationBlockCapturingSelf),
        ("signal creation block capturing self weakly", creationBlockWeakly),
    ]

    static func creationBlockCapturingSelf() -> CorpusOutcome {
        let (trace, survived) = recordWatching {
            let monitor = ConnectivityMonitor()
            monitor.makeActiveCapturingSelf()
            monitor.isActive?.subscribeNext { _ in }
            return monitor
        }
        return CorpusOutcome(
            trace: trace, expected: [Expected(rule: .selfCapturedObserver, line: 11)],
            watched: Watched(survived: survived, shouldSurvive: true))
    }

    static func creationBlockWeakly() -> CorpusOutcome {
        let (trace, survived) = recordWatching {
            let monitor = ConnectivityMonitor()
            monitor.makeActiveWeakly()
            monitor.isActive?.subscribeNext { _ in }
            return monitor
        }
        return CorpusOutcome(trace: trace, expected: [], watched: Watched(survived: survived, shouldSurvive: false))
    }
}
