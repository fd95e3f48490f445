import SignalScopeTools

// A control's event signals are cold signals whose blocks only register a target: each
// subscription registers its own, and one user action then reaches every subscriber, one
// event delivered to each. Nothing is repeated but the delivery, whether the action comes
// from user code, a UI test's scheduler or another signal's event, so there is no finding.
// A notification signal is built the same way. Expected lines are this file's.

/// A slider as UIKit builds one: targets per event, called in turn for each user action.
final class VolumeSlider {
    enum Event { case valueChanged, touchUp }

    private var targets: [(id: Int, event: Event, action: (Double) -> Void)] = []
    private var nextTarget = 0
    private(set) var value = 0.0
    /// What the user did.
    var actions = 0

    /// The control's events as a signal (rac_signalForControlEvents): subscribing adds a
    /// target, disposing removes it.
    func signal(for event: Event) -> Signal<Double> {
        Signal { [weak self] subscriber in
            guard let self else { return nil }
            nextTarget += 1
            let id = nextTarget
            targets.append((id, event, { subscriber.sendNext($0) }))
            return Disposable { [weak self] in self?.targets.removeAll { $0.id == id } }
        }
    }

    /// The user drags the thumb to `value` and lets go.
    func drag(to value: Double) {
        actions += 1
        self.value = value
        for target in targets where target.event == .valueChanged { target.action(value) }
        for target in targets where target.event == .touchUp { target.action(value) }
    }
}

/// A volume screen: the slider's value changes and its release, merged, drive a label, the
/// player's volume and an analytics counter, each bound where it is used.
final class SliderVolumeScreen {
    let slider = VolumeSlider()
    var label = ""
    var volume = 0.0
    var changes = 0
    let bag = CompoundDisposable()

    func bind() {
        let edits = Signal.merge([slider.signal(for: .valueChanged), slider.signal(for: .touchUp)])
        bag.add(edits.map { "\(Int($0 * 100))%" }.subscribeNext { [weak self] in self?.label = $0 })
        bag.add(edits.subscribeNext { [weak self] in self?.volume = $0 })
        bag.add(slider.signal(for: .touchUp).subscribeNext { [weak self] _ in self?.changes += 1 })
    }
}

/// A notification centre as Foundation's: observers called in turn for each post.
final class LoginNotifications {
    private var observers: [(id: Int, block: (String) -> Void)] = []
    private var nextObserver = 0

    /// The notification as a signal, made once: subscribing adds an observer, disposing
    /// removes it.
    private(set) lazy var posted = Signal<String> { [weak self] subscriber in
        guard let self else { return nil }
        nextObserver += 1
        let id = nextObserver
        observers.append((id, { subscriber.sendNext($0) }))
        return Disposable { [weak self] in self?.observers.removeAll { $0.id == id } }
    }

    func post(_ name: String) { for observer in observers { observer.block(name) } }
}

/// Two screens that reload when the user logs in.
final class LoginInboxScreen {
    var reloads = 0
    var disposable: Disposable?
    func observe(_ hub: LoginNotifications) { disposable = hub.posted.subscribeNext { [weak self] _ in self?.reloads += 1 } }
}

final class LoginBadgeScreen {
    var reloads = 0
    var disposable: Disposable?
    func observe(_ hub: LoginNotifications) { disposable = hub.posted.subscribeNext { [weak self] _ in self?.reloads += 1 } }
}

extension LeakCorpus {
    static let controlEventScenarios: [(name: String, run: @Sendable () -> CorpusOutcome)] = [
        ("a slider's events, merged, bound by three bindings, dragged by the user", sliderDragged),
        ("a slider dragged by a UI test's scheduler", sliderDraggedOnScheduler),
        ("a slider dragged in reaction to another signal's event", sliderDraggedByEvent),
        ("a notification observed by two screens, posted twice", notificationPosted),
    ]

    /// Ground truth: one user action each time, whatever the number of subscribers.
    private static func sliderDragged() -> CorpusOutcome {
        let screen = SliderVolumeScreen()
        let trace = Tracer.record {
            screen.bind()
            screen.slider.drag(to: 0.5)
            screen.slider.drag(to: 0.8)
        }
        precondition(screen.slider.actions == 2 && screen.changes == 2 && screen.label == "80%")
        return CorpusOutcome(trace: trace, expected: [])
    }

    private static func sliderDraggedOnScheduler() -> CorpusOutcome {
        let scheduler = TestScheduler()
        let screen = SliderVolumeScreen()
        let trace = Tracer.record {
            screen.bind()
            scheduler.schedule { screen.slider.drag(to: 0.3) }
            scheduler.schedule { screen.slider.drag(to: 0.6) }
            scheduler.run()
        }
        precondition(screen.slider.actions == 2 && screen.volume == 0.6)
        return CorpusOutcome(trace: trace, expected: [])
    }

    private static func sliderDraggedByEvent() -> CorpusOutcome {
        let screen = SliderVolumeScreen()
        let gestures = Subject<Double>()
        let trace = Tracer.record {
            screen.bind()
            screen.bag.add(gestures.subscribeNext { screen.slider.drag(to: $0) })
            gestures.sendNext(0.4)
            gestures.sendNext(0.9)
            // The gesture recogniser's signal ends with its view, as a control's does.
            gestures.sendCompleted()
        }
        precondition(screen.slider.actions == 2 && screen.changes == 2)
        return CorpusOutcome(trace: trace, expected: [])
    }

    private static func notificationPosted() -> CorpusOutcome {
        let hub = LoginNotifications()
        let inbox = LoginInboxScreen()
        let profile = LoginBadgeScreen()
        let trace = Tracer.record {
            inbox.observe(hub)
            profile.observe(hub)
            hub.post("login")
            hub.post("login")
        }
        precondition(inbox.reloads == 2 && profile.reloads == 2)
        return CorpusOutcome(trace: trace, expected: [])
    }
}
