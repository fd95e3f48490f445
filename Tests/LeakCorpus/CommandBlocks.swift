import SignalScopeTools

// A command keeps its execution block for as long as it lives, so a command stored on the
// object its block captures keeps that object alive.

final class DocumentAPI {
    func save(_ text: String) -> Signal<Bool> { .just(!text.isEmpty) }
}

final class EditorViewModel {
    let api = DocumentAPI()
    var text = "draft"
    var save: Command<Void, Bool>?
    var submit: Command<String, Bool>?

    func makeSaveCapturingSelf() {
        save = Command { _ in self.api.save(self.text) }
    }

    /// A method reference is a closure that captures its receiver.
    func makeSubmitFromMethod() {
        submit = Command(self.upload)
    }

    /// The inner closure's `[weak self]` makes the outer one capture self strongly, to
    /// have something to capture weakly each time it runs.
    func makeSaveWeakOnlyInside() {
        save = Command { _ in
            Signal { [weak self] subscriber in
                subscriber.sendNext(self?.text.isEmpty == false)
                subscriber.sendCompleted()
                return nil
            }
        }
    }

    func makeSaveWeakly() {
        save = Command { [weak self] _ in
            Signal { [weak self] subscriber in
                subscriber.sendNext(self?.text.isEmpty == false)
                subscriber.sendCompleted()
                return nil
            }
        }
    }

    func makeSubmitCapturingAPI() {
        let api = api
        submit = Command { api.save($0) }
    }

    func upload(_ text: String) -> Signal<Bool> { api.save(text) }
}

extension LeakCorpus {
    static let commandBlockScenarios: [(name: String, run: @Sendable () -> CorpusOutcome)] = [
        ("command block capturing self", commandCapturingSelf),
        ("command made from a method reference", commandFromMethod),
        ("command block weak only in its inner signal", commandWeakOnlyInside),
        ("command block weak outside and inside", commandWeakly),
        ("command block capturing a service", commandCapturingService),
    ]

    private static func editor(_ scenario: @escaping (EditorViewModel) -> Void, execute: Bool = true) -> (Trace, Bool) {
        recordWatching {
            let model = EditorViewModel()
            scenario(model)
            if execute { model.save?.execute(); model.submit?.execute("text") }
            return model
        }
    }

    static func commandCapturingSelf() -> CorpusOutcome {
        let (trace, survived) = editor { $0.makeSaveCapturingSelf() }
        return CorpusOutcome(
            trace: trace, expected: [Expected(rule: .selfCapturedObserver, line: 17)],
            watched: Watched(survived: survived, shouldSurvive: true))
    }

    static func commandFromMethod() -> CorpusOutcome {
        let (trace, survived) = editor { $0.makeSubmitFromMethod() }
        return CorpusOutcome(
            trace: trace, expected: [Expected(rule: .selfCapturedObserver, line: 22)],
            watched: Watched(survived: survived, shouldSurvive: true))
    }

    static func commandWeakOnlyInside() -> CorpusOutcome {
        let (trace, survived) = editor { $0.makeSaveWeakOnlyInside() }
        return CorpusOutcome(
            trace: trace, expected: [Expected(rule: .selfCapturedObserver, line: 28)],
            watched: Watched(survived: survived, shouldSurvive: true))
    }

    static func commandWeakly() -> CorpusOutcome {
        let (trace, survived) = editor { $0.makeSaveWeakly() }
        return CorpusOutcome(trace: trace, expected: [], watched: Watched(survived: survived, shouldSurvive: false))
    }

    static func commandCapturingService() -> CorpusOutcome {
        let (trace, survived) = editor { $0.makeSubmitCapturingAPI() }
        return CorpusOutcome(trace: trace, expected: [], watched: Watched(survived: survived, shouldSurvive: false))
    }
}
