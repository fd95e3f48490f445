import SignalScopeTools

// An observer that captures a container or an enum holding self keeps self as surely as one
// capturing self: through an array's, a dictionary's or a set's storage, or an enum's payload.

final class Analytics {
    func log(_ event: String) {}
}

final class CheckoutScreen: Hashable {
    /// Multi-payload, so the case tag lives in the payload's spare bits.
    enum Route {
        case cart
        case payment(CheckoutScreen)
        case receipt(Analytics)
    }

    let taps = Subject<Void>()
    let analytics = Analytics()
    var visits = 0

    func observeCapturingArray() {
        let participants: [AnyObject] = [analytics, self]
        taps.subscribeNext { _ in for case let screen as CheckoutScreen in participants { screen.visits += 1 } }
    }

    func observeCapturingDictionary() {
        let context: [String: AnyObject] = ["analytics": analytics, "owner": self]
        taps.subscribeNext { _ in (context["owner"] as? CheckoutScreen)?.visits += 1 }
    }

    func observeCapturingSet() {
        let screens: Set<CheckoutScreen> = [self]
        taps.subscribeNext { _ in screens.forEach { $0.visits += 1 } }
    }

    func observeCapturingEnum() {
        let route = Route.payment(self)
        taps.subscribeNext { _ in
            if case .payment(let screen) = route { screen.visits += 1 }
        }
    }

    /// The fix: build the container when the event comes, from a weak self.
    func observeBuildingContainersWeakly() {
        taps.subscribeNext { [weak self] _ in
            guard let self else { return }
            let participants: [AnyObject] = [self.analytics, self]
            let route = Route.payment(self)
            if case .payment(let screen) = route, participants.count == 2 { screen.visits += 1 }
        }
    }

    /// A container and an enum that hold only other objects.
    func observeCapturingOthers() {
        let loggers = [analytics]
        let route = Route.receipt(analytics)
        taps.subscribeNext { _ in
            loggers.forEach { $0.log("tap") }
            if case .receipt(let analytics) = route { analytics.log("receipt") }
        }
    }

    deinit { taps.sendCompleted() }

    static func == (lhs: CheckoutScreen, rhs: CheckoutScreen) -> Bool { lhs === rhs }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension LeakCorpus {
    static let containerScenarios: [(name: String, run: @Sendable () -> CorpusOutcome)] = [
        ("self inside an array captured by an observer", { checkout(CheckoutScreen.observeCapturingArray, leakAt: 24) }),
        ("self as a dictionary value captured by an observer", { checkout(CheckoutScreen.observeCapturingDictionary, leakAt: 29) }),
        ("self inside a set captured by an observer", { checkout(CheckoutScreen.observeCapturingSet, leakAt: 34) }),
        ("self in a multi-payload enum captured by an observer", { checkout(CheckoutScreen.observeCapturingEnum, leakAt: 39) }),
        ("containers built from a weak self", { checkout(CheckoutScreen.observeBuildingContainersWeakly, leakAt: nil) }),
        ("containers and enums holding other objects", { checkout(CheckoutScreen.observeCapturingOthers, leakAt: nil) }),
    ]

    private static func checkout(_ observe: (CheckoutScreen) -> () -> Void, leakAt line: Int?) -> CorpusOutcome {
        let (trace, survived) = recordWatching {
            let screen = CheckoutScreen()
            observe(screen)()
            screen.taps.sendNext(())
            return screen
        }
        return CorpusOutcome(
            trace: trace, expected: line.map { [Expected(rule: .selfCapturedObserver, line: $0)] } ?? [],
            watched: Watched(survived: survived, shouldSurvive: line != nil))
    }
}
