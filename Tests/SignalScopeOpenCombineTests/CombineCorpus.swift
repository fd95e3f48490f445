#if OpenCombineAdapter
import OpenCombine
import SignalScopeOpenCombine
import SignalScopeTools

// The Combine corpus: view models, coordinators and services written as Combine users write
// them on OpenCombine, each leaky one beside its fixed twin, and clean view models that keep
// their objects in use to the end. A leaky scenario marks the line where the fix goes with
// `fixLine = #line` on that same line, so the expectation follows the code.

/// One scenario's trace, the findings it must produce, and its ground truth.
struct CombineOutcome {
    let name: String
    let trace: Trace
    let expected: [Expected]
    /// Whether a weak reference still saw the scenario's object once the scenario had ended.
    let survived: Bool
    /// Whether it should have: a leak keeps it; a clean scenario frees it, or keeps it in use.
    let shouldSurvive: Bool
    /// The findings located in this file, where every scenario's lines are.
    let findings: [Finding]

    struct Expected: Hashable, CustomStringConvertible {
        let rule: RuleID
        let line: Int
        var description: String { "\(rule)@\(line)" }
    }

    init(_ name: String, trace: Trace, expected: [Expected], survived: Bool, shouldSurvive: Bool, file: String = #fileID) {
        (self.name, self.trace, self.expected, self.survived, self.shouldSurvive) = (name, trace, expected, survived, shouldSurvive)
        findings = trace.analyze().findings.filter { $0.location.file == file }
    }

    var found: Set<Expected> { Set(findings.map { Expected(rule: $0.rule, line: $0.location.line) }) }
}

// MARK: - The program's types

final class FeedViewModel {
    let refreshes = PassthroughSubject<Void, Never>()
    var items: [String] = []
    var cancellables = Set<AnyCancellable>()
    var fixLine = 0

    func bind(capturingSelf: Bool) {
        let loaded = refreshes.map { ["first", "second"] }
        if capturingSelf {
            fixLine = #line; loaded.sink { self.items = $0 }.store(in: &cancellables)
        } else {
            loaded.sink { [weak self] in self?.items = $0 }.store(in: &cancellables)
        }
    }
}

final class BadgeViewModel {
    let unread = CurrentValueSubject<Int, Never>(0)
    var badge = ""
    var cancellables = Set<AnyCancellable>()
    var fixLine = 0

    func bind(assigningToSelf: Bool) {
        let labels = unread.map { $0 == 0 ? "" : "\($0)" }
        if assigningToSelf {
            fixLine = #line; labels.assign(to: \.badge, on: self).store(in: &cancellables)
        } else {
            labels.sink { [weak self] in self?.badge = $0 }.store(in: &cancellables)
        }
    }
}

final class SearchViewModel {
    @Published var query = ""
    var results: [String] = []
    var cancellables = Set<AnyCancellable>()
    var fixLine = 0

    func bind(capturingSelf: Bool) {
        let searches = $query.removeDuplicates().filter { !$0.isEmpty }
        if capturingSelf {
            fixLine = #line; searches.sink { self.results = [$0 + " results"] }.store(in: &cancellables)
        } else {
            searches.sink { [weak self] in self?.results = [$0 + " results"] }.store(in: &cancellables)
        }
    }
}

/// A request as Combine code makes one: a `Future` the search's `flatMap` starts.
final class SearchService {
    func search(_ query: String) -> Future<[String], Never> {
        Future { promise in promise(.success([query + " result"])) }
    }
}

final class RequestingViewModel {
    let submits = PassthroughSubject<String, Never>()
    let service = SearchService()
    var results: [String] = []
    var cancellables = Set<AnyCancellable>()
    var fixLine = 0

    func bind(capturingSelfInFlatMap: Bool) {
        let requests: AnyPublisher<[String], Never>
        if capturingSelfInFlatMap {
            fixLine = #line; requests = submits.flatMap { query in self.service.search(query) }.eraseToAnyPublisher()
        } else {
            requests = submits.flatMap { [service] query in service.search(query) }.eraseToAnyPublisher()
        }
        requests.sink { [weak self] in self?.results = $0 }.store(in: &cancellables)
    }
}

final class TitleScreen {
    var title = ""
}

/// An app-wide event stream, made when the app starts and outliving every screen that
/// listens to it. (A subject locks its own state: any thread may send to it.)
final class SessionEvents: @unchecked Sendable {
    static let shared = SessionEvents()
    let loggedOut = PassthroughSubject<Void, Never>()
}

final class AccountScreen {
    var isSignedIn = true
    var cancellables = Set<AnyCancellable>()
    var fixLine = 0

    func listen(capturingSelf: Bool) {
        if capturingSelf {
            fixLine = #line; SessionEvents.shared.loggedOut.sink { self.isSignedIn = false }.store(in: &cancellables)
        } else {
            SessionEvents.shared.loggedOut.sink { [weak self] in self?.isSignedIn = false }.store(in: &cancellables)
        }
    }
}

final class ProfileCoordinator {
    let child = ProfileChildModel()
    var presented = 0
    var fixLine = 0

    func start(capturingSelf: Bool) {
        if capturingSelf {
            fixLine = #line; child.cancellable = child.taps.sink { _ in self.presented += 1 }
        } else {
            child.cancellable = child.taps.sink { [weak self] _ in self?.presented += 1 }
        }
    }
}

final class ProfileChildModel {
    let taps = PassthroughSubject<Void, Never>()
    var cancellable: AnyCancellable?
}

final class CounterModel {
    let increments = PassthroughSubject<Int, Never>()
    var total = 0
    var cancellable: AnyCancellable?

    func bind() {
        cancellable = increments.scan(0, +).sink { [weak self] in self?.total = $0 }
    }
}

final class FormViewModel {
    @Published var email = ""
    @Published var isValid = false
    var cancellables = Set<AnyCancellable>()

    func bind() {
        $email.map { $0.contains("@") }.removeDuplicates().sink { [weak self] in self?.isValid = $0 }.store(in: &cancellables)
    }
}

final class SettingsViewModel {
    let toggles = CurrentValueSubject<Bool, Never>(false)
    var label = ""
    var cancellables = Set<AnyCancellable>()

    func bind() {
        toggles.map { $0 ? "On" : "Off" }.sink { [weak self] in self?.label = $0 }.store(in: &cancellables)
    }

    deinit { toggles.send(completion: .finished) }
}

final class TimelineViewModel {
    let pages = PassthroughSubject<Int, Never>()
    let service = SearchService()
    var loaded: [String] = []
    var cancellables = Set<AnyCancellable>()

    func bind() {
        pages
            .compactMap { $0 > 0 ? "page \($0)" : nil }
            .flatMap { [service] page in service.search(page) }
            .sink { [weak self] in self?.loaded += $0 }
            .store(in: &cancellables)
    }
}

/// A request wrapped as Combine code wraps one so that it starts only when subscribed.
final class ProfileService {
    func profile() -> AnyPublisher<String, Never> {
        Deferred { Future { promise in promise(.success("Ada")) } }.eraseToAnyPublisher()
    }
}

final class ProfileViewModel {
    let service = ProfileService()
    let refreshes = PassthroughSubject<Void, Never>()
    var name = ""
    var cancellables = Set<AnyCancellable>()

    func bind() {
        refreshes
            .flatMap { [service] in service.profile() }
            .sink { [weak self] in self?.name = $0 }
            .store(in: &cancellables)
        service.profile().sink { [weak self] in self?.name = $0 }.store(in: &cancellables)
    }
}

/// The signed-in user's profile, requested when a screen shows it: the request is made once
/// and handed to every screen that asks.
final class ProfileStore {
    private(set) var requests = 0
    private(set) var profile: AnyPublisher<String, Never> = Empty().eraseToAnyPublisher()
    var fixLine = 0

    func prepare(sharing: Bool) {
        fixLine = #line; let request = Deferred { [weak self] in
            Future<String, Never> { promise in
                self?.requests += 1
                promise(.success("Ada"))
            }
        }
        profile = sharing ? request.share().eraseToAnyPublisher() : request.eraseToAnyPublisher()
    }
}

/// Two screens of one app that both show the profile.
final class ProfileHeader {
    var name = ""
    var cancellables = Set<AnyCancellable>()

    func show(_ store: ProfileStore) {
        store.profile.sink { [weak self] in self?.name = $0 }.store(in: &cancellables)
    }
}

final class ProfileDetails {
    var title = ""
    var cancellables = Set<AnyCancellable>()

    func show(_ store: ProfileStore) {
        store.profile.sink { [weak self] in self?.title = "Signed in as " + $0 }.store(in: &cancellables)
    }
}

/// State made when the app starts, living as long as it: a clock every screen may listen
/// to, and cancellables kept for the app's whole life.
final class AppClock: @unchecked Sendable {
    static let shared = AppClock()
    let ticks = PassthroughSubject<Int, Never>()
    var cancellables = Set<AnyCancellable>()
}

final class ClockScreen {
    var time = 0
    var cancellables = Set<AnyCancellable>()
    var fixLine = 0

    func start(storingAppWide: Bool) {
        let clock = AppClock.shared
        if storingAppWide {
            fixLine = #line; clock.ticks.sink { [weak self] in self?.time = $0 }.store(in: &clock.cancellables)
        } else {
            clock.ticks.sink { [weak self] in self?.time = $0 }.store(in: &cancellables)
        }
    }
}

final class OneShotLoader {
    var loaded = false

    func load() -> AnyCancellable {
        Just(1).delay(for: .zero, scheduler: ImmediateScheduler.shared).sink { [weak self] _ in self?.loaded = true }
    }
}

// MARK: - The scenarios

enum CombineCorpus {
    static func record<Object: AnyObject>(
        _ name: String, shouldSurvive: Bool, expected: @escaping (Object) -> [CombineOutcome.Expected] = { _ in [] },
        _ make: () -> Object, _ run: (Object) -> Void, release: (Object) -> Void = { _ in }
    ) -> CombineOutcome {
        weak var watched: Object?
        var expectations: [CombineOutcome.Expected] = []
        let trace = Tracer.record {
            let object = make()
            watched = object
            run(object)
            expectations = expected(object)
        }
        let survived = watched != nil
        if let watched { release(watched) }
        return CombineOutcome(name, trace: trace, expected: expectations, survived: survived, shouldSurvive: shouldSurvive)
    }

    static let scenarios: [(name: String, run: @Sendable () -> CombineOutcome)] = [
        ("sink { self } stored on self", {
            record("sink { self } stored on self", shouldSurvive: true, expected: { [.init(rule: .selfCapturedObserver, line: $0.fixLine)] },
                FeedViewModel.init, { $0.bind(capturingSelf: true); $0.refreshes.send() }, release: { $0.cancellables.removeAll() })
        }),
        ("sink { [weak self] } stored on self", {
            record("sink { [weak self] } stored on self", shouldSurvive: false, FeedViewModel.init, { $0.bind(capturingSelf: false); $0.refreshes.send() })
        }),
        ("assign(to:on: self) stored on self", {
            record("assign(to:on: self) stored on self", shouldSurvive: true, expected: { [.init(rule: .selfCapturedObserver, line: $0.fixLine)] },
                BadgeViewModel.init, { $0.bind(assigningToSelf: true); $0.unread.send(3) }, release: { $0.cancellables.removeAll() })
        }),
        ("assign's fix: a sink with [weak self]", {
            record("assign's fix: a sink with [weak self]", shouldSurvive: false, BadgeViewModel.init, { $0.bind(assigningToSelf: false); $0.unread.send(3) })
        }),
        ("$published.sink { self } stored on self", {
            record("$published.sink { self } stored on self", shouldSurvive: true, expected: { [.init(rule: .selfCapturedObserver, line: $0.fixLine)] },
                SearchViewModel.init, { $0.bind(capturingSelf: true); $0.query = "swift" }, release: { $0.cancellables.removeAll() })
        }),
        ("$published.sink { [weak self] }", {
            record("$published.sink { [weak self] }", shouldSurvive: false, SearchViewModel.init, { $0.bind(capturingSelf: false); $0.query = "swift" })
        }),
        ("flatMap { self.service... } stored on self", {
            record("flatMap { self.service... } stored on self", shouldSurvive: true, expected: { [.init(rule: .selfCapturedObserver, line: $0.fixLine)] },
                RequestingViewModel.init, { $0.bind(capturingSelfInFlatMap: true); $0.submits.send("swift") }, release: { $0.cancellables.removeAll() })
        }),
        ("flatMap { [service] ... }", {
            record("flatMap { [service] ... }", shouldSurvive: false, RequestingViewModel.init, { $0.bind(capturingSelfInFlatMap: false); $0.submits.send("swift") })
        }),
        // The cycle runs through the child, an object of the program's: a retain cycle, fixed
        // in the closure all the same.
        ("a coordinator its child's sink captures", {
            record("a coordinator its child's sink captures", shouldSurvive: true, expected: { [.init(rule: .retainCycle, line: $0.fixLine)] },
                ProfileCoordinator.init, { $0.start(capturingSelf: true); $0.child.taps.send() }, release: { $0.child.cancellable = nil })
        }),
        ("the coordinator's fix: [weak self]", {
            record("the coordinator's fix: [weak self]", shouldSurvive: false, ProfileCoordinator.init, { $0.start(capturingSelf: false); $0.child.taps.send() })
        }),
        // The app's stream, made before the screen, holds the screen through the sink: the
        // screen is dismissed and stays, until the stream ends or the app does.
        ("a screen an app-wide stream's sink captures", {
            _ = SessionEvents.shared
            return record("a screen an app-wide stream's sink captures", shouldSurvive: true,
                expected: { [.init(rule: .keptAliveBySignal, line: $0.fixLine)] },
                AccountScreen.init, { $0.listen(capturingSelf: true) }, release: { $0.cancellables.removeAll() })
        }),
        ("the app-wide stream's fix: [weak self]", {
            _ = SessionEvents.shared
            return record("the app-wide stream's fix: [weak self]", shouldSurvive: false, AccountScreen.init) { $0.listen(capturingSelf: false) }
        }),
        ("a subscriber subscribed directly and dropped, its subject never finished", {
            var line = 0
            let outcome = record("a subscriber subscribed directly and dropped, its subject never finished", shouldSurvive: true,
                expected: { _ in [.init(rule: .neverCompletedSubject, line: line)] }, TitleScreen.init,
                { screen in
                    let titles = PassthroughSubject<String, Never>()
                    line = #line; titles.subscribe(Subscribers.Sink(receiveCompletion: { _ in }, receiveValue: { screen.title = $0 }))
                    titles.send("Inbox")
                })
            return outcome
        }),
        ("the same subject sent .finished", {
            record("the same subject sent .finished", shouldSurvive: false, TitleScreen.init) { screen in
                let titles = PassthroughSubject<String, Never>()
                titles.subscribe(Subscribers.Sink(receiveCompletion: { _ in }, receiveValue: { screen.title = $0 }))
                titles.send("Inbox")
                titles.send(completion: .finished)
            }
        }),
        // Ground truth is the number of requests: had the request not run twice, the finding is
        // expected at no line, which fails the scenario; shared, it must have run once.
        ("a Deferred request two screens subscribe to", {
            let (header, details) = (ProfileHeader(), ProfileDetails())
            return record("a Deferred request two screens subscribe to", shouldSurvive: false,
                expected: { [.init(rule: .repeatedColdSubscription, line: $0.requests == 2 ? $0.fixLine : -1)] }, ProfileStore.init,
                { store in
                    store.prepare(sharing: false)
                    header.show(store)
                    details.show(store)
                })
        }),
        ("the request's fix: share()", {
            let (header, details) = (ProfileHeader(), ProfileDetails())
            return record("the request's fix: share()", shouldSurvive: false,
                expected: { $0.requests == 1 ? [] : [.init(rule: .repeatedColdSubscription, line: $0.fixLine)] }, ProfileStore.init,
                { store in
                    store.prepare(sharing: true)
                    header.show(store)
                    details.show(store)
                })
        }),
        // The screen is freed either way; what leaks is its subscription, kept by the app's
        // set and still run by the clock: ground truth is that set's count (without it, the
        // finding is expected at no line, which fails the scenario).
        ("a screen's sink { [weak self] } stored in an app-wide set", {
            let clock = AppClock.shared
            let outcome = record("a screen's sink { [weak self] } stored in an app-wide set", shouldSurvive: false,
                expected: { [.init(rule: .leakedSubscription, line: clock.cancellables.count == 1 ? $0.fixLine : -1)] }, ClockScreen.init,
                { screen in
                    screen.start(storingAppWide: true)
                    clock.ticks.send(1)
                })
            clock.cancellables.removeAll()
            return outcome
        }),
        ("the clock's fix: the screen's own set", {
            let clock = AppClock.shared
            return record("the clock's fix: the screen's own set", shouldSurvive: false,
                expected: { _ in clock.cancellables.isEmpty ? [] : [.init(rule: .leakedSubscription, line: 0)] }, ClockScreen.init,
                { screen in
                    screen.start(storingAppWide: false)
                    clock.ticks.send(1)
                })
        }),
        ("clean: a counter with scan", {
            record("clean: a counter with scan", shouldSurvive: false, CounterModel.init) { model in
                model.bind()
                model.increments.send(2)
                model.increments.send(3)
            }
        }),
        ("clean: a form validated from @Published", {
            record("clean: a form validated from @Published", shouldSurvive: false, FormViewModel.init) { $0.bind(); $0.email = "a@b.c" }
        }),
        ("clean: settings that finish their subject in deinit", {
            record("clean: settings that finish their subject in deinit", shouldSurvive: false, SettingsViewModel.init) { $0.bind(); $0.toggles.send(true) }
        }),
        ("clean: a timeline paging through a Future", {
            record("clean: a timeline paging through a Future", shouldSurvive: false, TimelineViewModel.init) { $0.bind(); $0.pages.send(1); $0.pages.send(2) }
        }),
        ("clean: a one-shot load that completes", {
            record("clean: a one-shot load that completes", shouldSurvive: false, OneShotLoader.init) { loader in _ = loader.load() }
        }),
        ("clean: a view model still in use at the end", {
            let model = FeedViewModel()
            let outcome = record("clean: a view model still in use at the end", shouldSurvive: true, { model }) { model in
                model.bind(capturingSelf: false)
                model.refreshes.send()
            }
            withExtendedLifetime(model) {}
            return outcome
        }),
        ("clean: a subject still in use at the end, with its sinks", {
            let bus = PassthroughSubject<String, Never>()
            var kept: [AnyCancellable] = []
            let outcome = record("clean: a subject still in use at the end, with its sinks", shouldSurvive: false, TitleScreen.init) { screen in
                kept.append(bus.sink { [weak screen] in screen?.title = $0 })
                bus.send("Inbox")
            }
            withExtendedLifetime((bus, kept)) {}
            return outcome
        }),
        ("clean: a profile loaded through Deferred { Future }, then refreshed", {
            record("clean: a profile loaded through Deferred { Future }, then refreshed", shouldSurvive: false, ProfileViewModel.init) { model in
                model.bind()
                model.refreshes.send()
                model.refreshes.send()
            }
        }),
        ("clean: a cancelled subscription", {
            record("clean: a cancelled subscription", shouldSurvive: false, FeedViewModel.init) { model in
                let cancellable = model.refreshes.sink { _ in model.items = [] }
                model.refreshes.send()
                cancellable.cancel()
            }
        }),
    ]
}
#endif
