import SignalScopeTools

// Whether an object holds a subscription's disposable decides whether the subscription is
// leaked: a finding must never say that nothing holds a disposable that something does.

final class FeedViewModel {
    let bag = CompoundDisposable()
    var tokens: [String: Disposable] = [:]
    var items = 0

    func followInBag() {
        bag.add(AppEvents.bus.subscribeNext { [weak self] _ in self?.items += 1 })
    }

    func followInDictionary() {
        tokens["feed"] = AppEvents.bus.subscribeNext { [weak self] _ in self?.items += 1 }
    }

    func followDroppingDisposable() {
        AppEvents.bus.subscribeNext { [weak self] _ in self?.items += 1 }
    }

    deinit {
        bag.dispose()
        tokens.values.forEach { $0.dispose() }
    }
}

extension LeakCorpus {
    static let heldDisposableScenarios: [(name: String, run: @Sendable () -> CorpusOutcome)] = [
        ("disposable kept in a bag the model owns", { feed(FeedViewModel.followInBag, leakAt: nil) }),
        ("disposable kept in a dictionary the model owns", { feed(FeedViewModel.followInDictionary, leakAt: nil) }),
        ("disposable dropped", { feed(FeedViewModel.followDroppingDisposable, leakAt: 20) }),
    ]

    /// The model stays alive while the scenario looks, as a screen on display would.
    private static func feed(_ follow: (FeedViewModel) -> () -> Void, leakAt line: Int?) -> CorpusOutcome {
        let model = FeedViewModel()
        let trace = Tracer.record { follow(model)() }
        return CorpusOutcome(
            trace: trace, expected: line.map { [Expected(rule: .leakedSubscription, line: $0)] } ?? [])
    }
}
