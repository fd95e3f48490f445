import Foundation
import SignalScopeTools
import Testing

// Clean code as real MVVM apps write it (inputs, outputs, a throttled search with
// switchToLatest, paging through a command, a form with validation and a submit command, a
// screen living on a global event bus until its lifetime ends, a countdown on a timer):
// every view model is freed when its screen goes away, and the analysis of its recording
// must say nothing at all. Ground truth first: a weak reference shows the view model freed.

struct CleanItem: Equatable {
    let id: Int
    let title: String
}

/// A service the view models share: its requests are cold signals answered on a scheduler.
final class CleanAPI {
    let scheduler: TestScheduler
    private(set) var requests = 0

    init(scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    func search(_ query: String) -> Signal<[CleanItem]> {
        Signal { [scheduler] subscriber in
            self.requests += 1
            return scheduler.schedule(afterDelay: 0.2) {
                subscriber.sendNext([CleanItem(id: query.count, title: query)])
                subscriber.sendCompleted()
            }
        }
    }

    func page(_ number: Int) -> Signal<[CleanItem]> {
        Signal { [scheduler] subscriber in
            scheduler.schedule(afterDelay: 0.1) {
                subscriber.sendNext((0..<3).map { CleanItem(id: number * 3 + $0, title: "item \(number * 3 + $0)") })
                subscriber.sendCompleted()
            }
        }
    }

    func login(email: String, password: String) -> Signal<Bool> {
        Signal { [scheduler] subscriber in
            scheduler.schedule(afterDelay: 0.3) {
                if password == "wrong" {
                    subscriber.sendError(LoginError.rejected)
                } else {
                    subscriber.sendNext(true)
                    subscriber.sendCompleted()
                }
            }
        }
    }

    enum LoginError: Error { case rejected }
}

/// Inputs as properties, outputs bound from them; the request chain captures the service,
/// never the view model.
final class CleanSearchViewModel {
    let query = MutableProperty("")
    let results = MutableProperty<[CleanItem]>([])
    let isSearching = MutableProperty(false)

    init(api: CleanAPI) {
        let requests = query.signal
            .throttle(0.3, on: api.scheduler)
            .filter { !$0.isEmpty }
            .map { [api] query in api.search(query).catchTo(.just([])) }
        results.bind(to: requests.switchToLatest())
        isSearching.bind(to: Signal.merge([requests.mapReplace(true), results.signal.skip(1).mapReplace(false)]))
    }
}

/// Paging through a command; what it loads is appended by a weak observer whose disposable
/// the view model disposes when it goes away.
final class CleanPagingViewModel {
    let items = MutableProperty<[CleanItem]>([])
    let isLoading = MutableProperty(false)
    private(set) var loadMore: Command<Void, [CleanItem]>!
    private let bag = CompoundDisposable()
    private var nextPage = 0

    init(api: CleanAPI) {
        loadMore = Command { [weak self] _ in
            guard let self else { return .empty() }
            defer { self.nextPage += 1 }
            return api.page(self.nextPage)
        }
        bag.add(loadMore.executionSignals.flatten().subscribeNext { [weak self] page in
            self?.items.value += page
        })
        isLoading.bind(to: loadMore.executing)
    }

    deinit { bag.dispose() }
}

/// A form: validation combines the inputs; the submit command is enabled by it; its errors
/// become a message.
final class CleanLoginViewModel {
    let email = MutableProperty("")
    let password = MutableProperty("")
    let message = MutableProperty("")
    let isValid = MutableProperty(false)
    let submit: Command<Void, Bool>
    private let bag = CompoundDisposable()

    init(api: CleanAPI) {
        let valid = Signal.combineLatest(email.signal, password.signal).map { email, password in
            email.contains("@") && password.count >= 4
        }
        isValid.bind(to: valid)
        let (email, password) = (email, password)
        submit = Command(enabled: valid) { _ in api.login(email: email.value, password: password.value) }
        bag.add(submit.errors.subscribeNext { [weak self] _ in self?.message.value = "Wrong email or password" })
        bag.add(submit.executionSignals.flatten().subscribeNext { [weak self] _ in self?.message.value = "Welcome" })
    }

    deinit { bag.dispose() }
}

/// An app-wide event bus, observed by a screen until its lifetime ends.
enum CleanEvents {
    static let bus = Subject<String>()
}

final class CleanInboxScreen {
    let unread = MutableProperty(0)
    private let (lifetime, token) = Lifetime.make()

    init() {
        CleanEvents.bus.takeUntil(lifetime.ended).filter { $0 == "message" }.subscribeNext { [weak self] _ in
            self?.unread.value += 1
        }
    }
}

/// A countdown on a timer, bounded by take.
final class CleanCountdownViewModel {
    let remaining = MutableProperty(3)

    init(scheduler: TestScheduler) {
        remaining.bind(to: Signal.interval(1, on: scheduler).take(3).scan(3) { left, _ in left - 1 })
    }
}

@Suite("Clean code produces no finding", .timeLimit(.minutes(10)))
struct CleanCodeTests {
    /// Runs `scenario` recorded, drops everything it made, and returns the analysis and
    /// whether the object it watched was freed.
    private func judge<Object: AnyObject>(_ scenario: () -> Object) -> (report: AnalysisReport, freed: Bool) {
        weak var watched: Object?
        let trace = Tracer.record { watched = scenario() }
        return (trace.analyze(), watched == nil)
    }

    @Test("A search screen: throttle, switchToLatest, a request per query, bound outputs")
    func search() throws {
        let api = CleanAPI(scheduler: TestScheduler())
        let (report, freed) = judge {
            let model = CleanSearchViewModel(api: api)
            for text in ["s", "sw", "swi", "swift"] {
                model.query.value = text
                api.scheduler.advance(by: 0.1)
            }
            api.scheduler.run()
            return model
        }
        try #require(freed, "ground truth: the view model is freed")
        #expect(api.requests > 0)
        #expect(report.findings.isEmpty, "\(report.findings)")
        #expect(report.limitations.isEmpty, "\(report.limitations)")
    }

    @Test("A paging list: a command loads each page, a weak observer appends it")
    func paging() throws {
        let api = CleanAPI(scheduler: TestScheduler())
        let (report, freed) = judge {
            let model = CleanPagingViewModel(api: api)
            for _ in 0..<3 {
                model.loadMore.execute()
                api.scheduler.run()
            }
            return model
        }
        try #require(freed, "ground truth: the view model is freed")
        #expect(report.findings.isEmpty, "\(report.findings)")
        #expect(report.limitations.isEmpty, "\(report.limitations)")
    }

    @Test("A login form: validation, a submit command enabled by it, its errors handled")
    func login() throws {
        let api = CleanAPI(scheduler: TestScheduler())
        let (report, freed) = judge {
            let model = CleanLoginViewModel(api: api)
            model.email.value = "ada@example.com"
            model.password.value = "wrong"
            model.submit.execute()
            api.scheduler.run()
            model.password.value = "secret"
            model.submit.execute()
            api.scheduler.run()
            return model
        }
        try #require(freed, "ground truth: the view model is freed")
        #expect(report.findings.isEmpty, "\(report.findings)")
        #expect(report.limitations.isEmpty, "\(report.limitations)")
    }

    @Test("A screen on a global event bus until its lifetime ends")
    func inbox() throws {
        let (report, freed) = judge {
            let screen = CleanInboxScreen()
            CleanEvents.bus.sendNext("message")
            CleanEvents.bus.sendNext("typing")
            return screen
        }
        try #require(freed, "ground truth: the screen is freed")
        #expect(report.findings.isEmpty, "\(report.findings)")
        #expect(report.limitations.isEmpty, "\(report.limitations)")
    }

    @Test("A countdown on a timer, bounded by take")
    func countdown() throws {
        let scheduler = TestScheduler()
        let (report, freed) = judge {
            let model = CleanCountdownViewModel(scheduler: scheduler)
            scheduler.advance(by: 5)
            return model
        }
        try #require(freed, "ground truth: the view model is freed")
        #expect(report.findings.isEmpty, "\(report.findings)")
        #expect(report.limitations.isEmpty, "\(report.limitations)")
    }

    @Test("Screens and their view models together, on a queue, the way an app runs them")
    func appOnAQueue() throws {
        let scheduler = TestScheduler()
        let api = CleanAPI(scheduler: scheduler)
        let queue = QueueScheduler()
        let (report, freed) = judge {
            let search = CleanSearchViewModel(api: api)
            let login = CleanLoginViewModel(api: api)
            let done = DispatchSemaphore(value: 0)
            queue.schedule {
                search.query.value = "swift"
                login.email.value = "ada@example.com"
                login.password.value = "secret"
                done.signal()
            }
            done.wait()
            scheduler.run()
            login.submit.execute()
            scheduler.run()
            return login
        }
        try #require(freed, "ground truth: the view model is freed")
        #expect(report.findings.isEmpty, "\(report.findings)")
        #expect(report.limitations.isEmpty, "\(report.limitations)")
    }
}
