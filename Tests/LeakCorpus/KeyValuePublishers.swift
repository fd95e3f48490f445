import SignalScopeTools

// Key-value observation and notifications turned into signals, built as Foundation builds
// them: the signal's creation block registers an observation whose block holds the
// subscriber, and the disposable it returns holds the observation, to end it. A view model
// that binds such a signal to itself, capturing itself, and keeps the disposable, holds
// its own observer. Expected lines are this file's: keep its declarations where they are.

/// Settings the app observes by key path, as an NSObject subclass is observed: each change
/// reaches the observations registered for that key path, which it refers to weakly (KVO
/// does not retain its observers).
final class DownloadSettings {
    var allowsCellular = false { didSet { notifyObservers(of: \DownloadSettings.allowsCellular) } }
    var quality = 1 { didSet { notifyObservers(of: \DownloadSettings.quality) } }
    private var observations: [WeakObservation] = []

    private struct WeakObservation {
        weak var token: ObservationToken?
    }

    /// `observe(_:options: [.initial, .new], changeHandler:)`: the current value at once,
    /// then every change, until the token is invalidated or deinitialized.
    func observe<Value>(_ keyPath: KeyPath<DownloadSettings, Value>, changeHandler: @escaping (Value) -> Void) -> ObservationToken {
        let token = ObservationToken(keyPath: keyPath) { [weak self] in
            if let self { changeHandler(self[keyPath: keyPath]) }
        }
        token.observed = self
        observations.append(WeakObservation(token: token))
        token.changed()
        return token
    }

    /// `publisher(for:)`: one observation per subscription.
    func publisher<Value>(for keyPath: KeyPath<DownloadSettings, Value>) -> Signal<Value> {
        Signal { subscriber in
            let token = self.observe(keyPath) { subscriber.sendNext($0) }
            return Disposable { token.invalidate() }
        }
    }

    fileprivate func remove(_ token: ObservationToken) {
        observations.removeAll { $0.token == nil || $0.token === token }
    }

    private func notifyObservers(of keyPath: AnyKeyPath) {
        for observation in observations where observation.token?.keyPath == keyPath { observation.token?.changed() }
    }
}

/// NSKeyValueObservation: the observation lasts while the token does, or until invalidated.
final class ObservationToken {
    let keyPath: AnyKeyPath
    let changed: () -> Void
    weak var observed: DownloadSettings?

    init(keyPath: AnyKeyPath, changed: @escaping () -> Void) {
        self.keyPath = keyPath
        self.changed = changed
    }

    func invalidate() {
        observed?.remove(self)
        observed = nil
    }

    deinit { invalidate() }
}

extension Signal {
    /// Combine's `assign(to:on:)`, ported by the app (the runtime's own `assign` holds the
    /// object weakly): the object is held strongly. It passes its caller's site on, as the
    /// runtime's operators do, so that the subscription is reported where the binding is.
    func assignEach<Root: AnyObject>(
        to keyPath: ReferenceWritableKeyPath<Root, Value>, on object: Root,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Disposable {
        subscribeNext(file: file, line: line, function: function) { object[keyPath: keyPath] = $0 }
    }
}

final class DownloadsViewModel {
    let settings = DownloadSettings()
    var cellularEnabled = false
    var binding: Disposable?

    /// `publisher(for:)` assigned to self, the disposable stored on self.
    func bindAssigningToSelf() {
        binding = settings.publisher(for: \.allowsCellular).assignEach(to: \.cellularEnabled, on: self)
    }

    func bindWeakly() {
        binding = settings.publisher(for: \.allowsCellular).subscribeNext { [weak self] in self?.cellularEnabled = $0 }
    }

    deinit { binding?.dispose() }
}

/// NotificationCenter, as an app's own: it keeps each block-based observer until the
/// observer is removed.
final class NotificationHub {
    private var observers: [HubObserver] = []

    func addObserver(forName name: String, using block: @escaping (String) -> Void) -> HubObserver {
        let observer = HubObserver(name: name, block: block)
        observers.append(observer)
        return observer
    }

    func removeObserver(_ observer: HubObserver) {
        observers.removeAll { $0 === observer }
    }

    func post(name: String, message: String) {
        for observer in observers where observer.name == name { observer.block(message) }
    }

    /// `NotificationCenter.publisher(for:)`: one observer per subscription.
    func notifications(named name: String) -> Signal<String> {
        Signal { subscriber in
            let observer = self.addObserver(forName: name) { subscriber.sendNext($0) }
            return Disposable { self.removeObserver(observer) }
        }
    }
}

final class HubObserver {
    let name: String
    let block: (String) -> Void

    init(name: String, block: @escaping (String) -> Void) {
        self.name = name
        self.block = block
    }
}

final class InboxViewModel {
    let hub: NotificationHub
    var lastMessage = ""
    var observation: Disposable?

    init(hub: NotificationHub) { self.hub = hub }

    func observeCapturingSelf() {
        observation = hub.notifications(named: "message").subscribeNext { self.lastMessage = $0 }
    }

    func observeWeakly() {
        observation = hub.notifications(named: "message").subscribeNext { [weak self] in self?.lastMessage = $0 }
    }

    deinit { observation?.dispose() }
}

extension LeakCorpus {
    static let keyValuePublisherScenarios: [(name: String, run: @Sendable () -> CorpusOutcome)] = [
        ("a key-value publisher assigned to the view model that stores its disposable", {
            downloads(DownloadsViewModel.bindAssigningToSelf, leakAt: 88)
        }),
        ("a key-value publisher observed with [weak self], disposed in deinit", { downloads(DownloadsViewModel.bindWeakly, leakAt: nil) }),
        ("app-wide notifications observed capturing the view model that stores the disposable", {
            inbox(InboxViewModel.observeCapturingSelf, leakAt: 144)
        }),
        ("app-wide notifications observed with [weak self], disposed in deinit", { inbox(InboxViewModel.observeWeakly, leakAt: nil) }),
    ]

    /// The view model owns the settings it observes; the scenario drops the view model.
    private static func downloads(_ bind: (DownloadsViewModel) -> () -> Void, leakAt line: Int?) -> CorpusOutcome {
        let (trace, survived) = recordWatching {
            let model = DownloadsViewModel()
            bind(model)()
            model.settings.allowsCellular = true
            model.settings.quality = 2
            return model
        }
        return CorpusOutcome(
            trace: trace, expected: line.map { [Expected(rule: .selfCapturedObserver, line: $0)] } ?? [],
            watched: Watched(survived: survived, shouldSurvive: line != nil))
    }

    /// The hub is the app's, alive for its whole run (as `NotificationCenter.default`); the
    /// scenario drops the view model.
    private static func inbox(_ observe: (InboxViewModel) -> () -> Void, leakAt line: Int?) -> CorpusOutcome {
        let hub = NotificationHub()
        let (trace, survived) = recordWatching {
            let model = InboxViewModel(hub: hub)
            observe(model)()
            hub.post(name: "message", message: "hello")
            return model
        }
        withExtendedLifetime(hub) {}
        return CorpusOutcome(
            trace: trace, expected: line.map { [Expected(rule: .selfCapturedObserver, line: $0)] } ?? [],
            watched: Watched(survived: survived, shouldSurvive: line != nil))
    }
}
