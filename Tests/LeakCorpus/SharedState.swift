import SignalScopeTools

// A `share()` written by hand, as RxCocoa builds sharing: a small state object, captured by
// the shared signal's block and by each subscription's disposable, holds the subject that
// fans the source out and the one subscription to the source, made for the first
// subscriber and ended when the last one leaves. While a screen is on display, its
// bindings keep every such state object alive through the runtime's closures alone: that
// is the program using them, not a leak. Expected lines are this file's: keep its
// declarations where they are.

/// What one shared signal's subscribers share.
final class ShareState<Value> {
    let subject = Subject<Value>()
    var connection: Disposable?
    var count = 0
}

extension Signal {
    /// One subscription to this signal, however many subscribers: made for the first, ended
    /// when the last one leaves, made again for the next one.
    func shareWhileConnected() -> Signal<Value> {
        let state = ShareState<Value>()
        return Signal<Value> { subscriber in
            state.count += 1
            let inner = state.subject.subscribe(
                next: { subscriber.sendNext($0) },
                error: { subscriber.sendError($0) },
                completed: { subscriber.sendCompleted() })
            if state.count == 1 {
                state.connection = self.subscribe(
                    next: { state.subject.sendNext($0) },
                    error: { state.subject.sendError($0) },
                    completed: { state.subject.sendCompleted() })
            }
            return Disposable {
                inner.dispose()
                state.count -= 1
                if state.count == 0 {
                    state.connection?.dispose()
                    state.connection = nil
                }
            }
        }
    }
}

/// A weather station's readings, as the app's service delivers them: never completed.
final class WeatherService {
    let readings = Subject<Double>()
}

final class WeatherViewModel {
    /// What the user typed into the station's "set temperature" field.
    let entered: MutableProperty<Double>
    let temperature: Signal<String>
    let feelsLike: Signal<String>
    let isFreezing: Signal<Bool>
    let isHot: Signal<Bool>
    let badge: Signal<String>
    let advice: Signal<String>

    /// Six shared outputs of the service's readings, or of what the user entered.
    init(readings: Signal<Double>? = nil) {
        let entered = MutableProperty(20.0)
        self.entered = entered
        let source = readings ?? entered.signal
        temperature = source.map { "\(Int($0)) C" }.shareWhileConnected()
        feelsLike = source.map { "feels like \(Int($0) - 2) C" }.shareWhileConnected()
        isFreezing = source.map { $0 <= 0 }.shareWhileConnected()
        isHot = source.map { $0 >= 30 }.shareWhileConnected()
        badge = source.map { $0 >= 30 ? "sun" : "cloud" }.shareWhileConnected()
        advice = source.map { $0 <= 0 ? "wear a coat" : "enjoy the day" }.shareWhileConnected()
    }
}

final class WeatherScreen {
    let viewModel: WeatherViewModel
    let bag = CompoundDisposable()
    var temperatureText = ""
    var accessibilityText = ""
    var feelsLikeText = ""
    var showsFrost = false
    var showsHeatWarning = false
    var badgeName = ""
    var adviceText = ""
    var headline = ""

    init(viewModel: WeatherViewModel) { self.viewModel = viewModel }

    /// Seven bindings of six shared outputs, each observer capturing the screen weakly.
    func bind() {
        bag.add(viewModel.temperature.subscribeNext { [weak self] in self?.temperatureText = $0 })
        bag.add(viewModel.temperature.subscribeNext { [weak self] in self?.accessibilityText = "Temperature \($0)" })
        bag.add(viewModel.feelsLike.subscribeNext { [weak self] in self?.feelsLikeText = $0 })
        bag.add(viewModel.isFreezing.subscribeNext { [weak self] in self?.showsFrost = $0 })
        bag.add(viewModel.isHot.subscribeNext { [weak self] in self?.showsHeatWarning = $0 })
        bag.add(viewModel.badge.subscribeNext { [weak self] in self?.badgeName = $0 })
        bag.add(viewModel.advice.subscribeNext { [weak self] in self?.adviceText = $0 })
    }

    /// The same, and one more binding whose observer captures the screen.
    func bindWithHeadlineCapturingSelf() {
        bind()
        bag.add(viewModel.temperature.subscribeNext { self.headline = "Now \($0)" })
    }

    deinit { bag.dispose() }
}

extension LeakCorpus {
    static let sharedStateScenarios: [(name: String, run: @Sendable () -> CorpusOutcome)] = [
        ("a screen on display bound to six hand-shared outputs of its view model's property", {
            weather(readingsFromService: false, onDisplay: true, WeatherScreen.bind, leakAt: nil)
        }),
        ("a screen on display bound to six hand-shared outputs of a service's subject", {
            weather(readingsFromService: true, onDisplay: true, WeatherScreen.bind, leakAt: nil)
        }),
        ("a dismissed screen bound weakly to hand-shared outputs of a service's subject", {
            weather(readingsFromService: true, onDisplay: false, WeatherScreen.bind, leakAt: nil)
        }),
        ("a dismissed screen with one observer of a hand-shared output capturing it", {
            weather(readingsFromService: true, onDisplay: false, WeatherScreen.bindWithHeadlineCapturingSelf, leakAt: 104)
        }),
    ]

    /// The service is the app's, alive for its whole run. A screen on display is still held
    /// when recording ends (by the scenario, as by the window); a dismissed one is dropped.
    private static func weather(
        readingsFromService: Bool, onDisplay: Bool, _ bind: (WeatherScreen) -> () -> Void, leakAt line: Int?
    ) -> CorpusOutcome {
        let service = WeatherService()
        var displayed: WeatherScreen?
        weak var watched: WeatherScreen?
        let readings: Signal<Double>? = readingsFromService ? service.readings : nil
        let trace = Tracer.record {
            let screen = WeatherScreen(viewModel: WeatherViewModel(readings: readings))
            bind(screen)()
            if readingsFromService {
                service.readings.sendNext(-3)
                service.readings.sendNext(31)
            } else {
                screen.viewModel.entered.value = -3
                screen.viewModel.entered.value = 31
            }
            watched = screen
            if onDisplay { displayed = screen }
        }
        let survived = watched != nil
        withExtendedLifetime(displayed) {}
        withExtendedLifetime(service) {}
        return CorpusOutcome(
            trace: trace, expected: line.map { [Expected(rule: .selfCapturedObserver, line: $0)] } ?? [],
            watched: Watched(survived: survived, shouldSurvive: onDisplay || line != nil))
    }
}
