import SignalScopeTools

// Operators' closures keep what they capture as long as the subscription runs, whatever the
// observer at the end captures: `[weak self]` in `subscribeNext` alone does not help.

final class SearchService {
    func search(_ text: String) -> Signal<[String]> { .just([text]) }
}

final class QueryScreen {
    let query = MutableProperty("")
    let service = SearchService()
    var minimumLength = 2
    var searches = 0
    var results: [String] = []
    var observation: Disposable?

    /// Every stage but the observer captures self.
    func bindCapturingSelfInOperators() {
        observation = query.signal
            .filter { $0.count >= self.minimumLength }
            .map { $0.lowercased() + String(repeating: " ", count: self.searches) }
            .flattenMap { self.service.search($0) }
            .doNext { _ in self.searches += 1 }
            .subscribeNext { [weak self] in self?.results = $0 }
    }

    /// The fix: each stage captures what it needs, or self weakly.
    func bindCapturingValues() {
        let minimumLength = minimumLength
        let service = service
        observation = query.signal
            .filter { $0.count >= minimumLength }
            .map { $0.lowercased() }
            .flattenMap { service.search($0) }
            .doNext { [weak self] _ in self?.searches += 1 }
            .subscribeNext { [weak self] in self?.results = $0 }
    }

    /// A source the app holds for its whole run: nothing is garbage, but the object holds
    /// the only handle that could end the subscription whose operator captures it.
    func followGlobalQueries() {
        observation = AppEvents.bus
            .map { self.normalize($0) }
            .subscribeNext { [weak self] in self?.results = [$0] }
    }

    func followGlobalQueriesUntilDone() {
        observation = AppEvents.bus
            .map { [weak self] in self?.normalize($0) ?? $0 }
            .subscribeNext { [weak self] in self?.results = [$0] }
    }

    func normalize(_ text: String) -> String { text.lowercased() }

    deinit { observation?.dispose() }
}

extension LeakCorpus {
    static let operatorClosureScenarios: [(name: String, run: @Sendable () -> CorpusOutcome)] = [
        ("operators capturing self, observer weak", operatorsCapturingSelf),
        ("operators capturing values", operatorsCapturingValues),
        ("operator capturing self on a global source", operatorOnGlobalSource),
        ("operator capturing self weakly on a global source", operatorWeakOnGlobalSource),
    ]

    static func operatorsCapturingSelf() -> CorpusOutcome {
        let (trace, survived) = recordWatching { let screen = QueryScreen(); screen.bindCapturingSelfInOperators(); return screen }
        return CorpusOutcome(
            // One leak, one finding: located at the first stage that captures self, the
            // other three named in it (four findings before, one per closure).
            trace: trace, expected: [Expected(rule: .selfCapturedObserver, line: 21)],
            watched: Watched(survived: survived, shouldSurvive: true))
    }

    static func operatorsCapturingValues() -> CorpusOutcome {
        let (trace, survived) = recordWatching { let screen = QueryScreen(); screen.bindCapturingValues(); return screen }
        return CorpusOutcome(trace: trace, expected: [], watched: Watched(survived: survived, shouldSurvive: false))
    }

    static func operatorOnGlobalSource() -> CorpusOutcome {
        let (trace, survived) = recordWatching { let screen = QueryScreen(); screen.followGlobalQueries(); return screen }
        return CorpusOutcome(
            trace: trace, expected: [Expected(rule: .selfCapturedObserver, line: 44)],
            watched: Watched(survived: survived, shouldSurvive: true))
    }

    static func operatorWeakOnGlobalSource() -> CorpusOutcome {
        let (trace, survived) = recordWatching { let screen = QueryScreen(); screen.followGlobalQueriesUntilDone(); return screen }
        return CorpusOutcome(trace: trace, expected: [], watched: Watched(survived: survived, shouldSurvive: false))
    }
}
