import SignalScopeTools

// Closures of generic helpers, as users write them (and as Combine's `assign(to:on:)` is):
// their captures have generic types, which the walk reads exactly from the generic
// arguments the closure's context binds, and key paths are objects of their own.

extension Signal {
    /// Combine's `assign(to:on:)`, written by hand: the object is captured strongly.
    func write<Root: AnyObject>(to keyPath: ReferenceWritableKeyPath<Root, Value>, on object: Root) -> Disposable {
        subscribeNext { object[keyPath: keyPath] = $0 }
    }

    func writeWeakly<Root: AnyObject>(to keyPath: ReferenceWritableKeyPath<Root, Value>, on object: Root) -> Disposable {
        subscribeNext { [weak object] in object?[keyPath: keyPath] = $0 }
    }

    /// An observer that hands the owner to an update function: generic in both.
    func observe<Owner: AnyObject>(by owner: Owner, _ update: @escaping (Owner, Value) -> Void) -> Disposable {
        subscribeNext { update(owner, $0) }
    }

    func observeWeakly<Owner: AnyObject>(by owner: Owner, _ update: @escaping (Owner, Value) -> Void) -> Disposable {
        subscribeNext { [weak owner] value in owner.map { update($0, value) } }
    }
}

final class GreetingScreen {
    let name = MutableProperty("")
    var greeting = ""
    var bindings: [Disposable] = []

    func bindWithHelper() { bindings.append(name.signal.map { "Hello, \($0)" }.write(to: \.greeting, on: self)) }
    func bindWithWeakHelper() { bindings.append(name.signal.map { "Hello, \($0)" }.writeWeakly(to: \.greeting, on: self)) }
    func bindWithUpdate() { bindings.append(name.signal.observe(by: self) { screen, name in screen.greeting = name }) }
    func bindWithWeakUpdate() { bindings.append(name.signal.observeWeakly(by: self) { screen, name in screen.greeting = name }) }
}

extension LeakCorpus {
    static let genericHelperScenarios: [(name: String, run: @Sendable () -> CorpusOutcome)] = [
        ("a hand-written assign(to:on:) capturing the object", { greeting(GreetingScreen.bindWithHelper, leakAt: 10) }),
        ("a hand-written assign(to:on:) capturing the object weakly", { greeting(GreetingScreen.bindWithWeakHelper, leakAt: nil) }),
        ("a generic observer capturing its owner", { greeting(GreetingScreen.bindWithUpdate, leakAt: 19) }),
        ("a generic observer capturing its owner weakly", { greeting(GreetingScreen.bindWithWeakUpdate, leakAt: nil) }),
    ]

    private static func greeting(_ bind: (GreetingScreen) -> () -> Void, leakAt line: Int?) -> CorpusOutcome {
        let (trace, survived) = recordWatching {
            let screen = GreetingScreen()
            bind(screen)()
            screen.name.value = "Ada"
            return screen
        }
        return CorpusOutcome(
            trace: trace, expected: line.map { [Expected(rule: .selfCapturedObserver, line: $0)] } ?? [],
            watched: Watched(survived: survived, shouldSurvive: line != nil))
    }
}
