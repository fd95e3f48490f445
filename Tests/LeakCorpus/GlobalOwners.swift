import SignalScopeTools
import Synchronization

// Objects the app holds for its whole run (an API client's activity tracker, a session
// store) own signals, subscriptions and the state that shares them. What they hold is held
// by the app: a screen that follows them and ends its subscription when it closes leaves
// nothing behind, and a singleton's own subscription, kept in its own property, is the
// app's. A screen that follows one capturing itself and drops the disposable leaves a
// subscription nothing can end, which keeps the screen alive with it: one leak, reported
// once. The singletons are used from any thread (every test of the corpus may run at once),
// so their mutable state is locked. Expected lines are this file's: keep its declarations
// where they are.

/// How many screens show the loading state, and the one subscription to the request count
/// that serves them all: the small state object the shared signal's block captures.
final class LoadingShare: Sendable {
    struct State {
        var count = 0
        var connection: Disposable?
    }

    let subject = Subject<Bool>()
    let state = Mutex(State())
}

/// Counts the requests in flight, for the spinners of every screen.
final class ActivityTracker: Sendable {
    let inFlight: MutableProperty<Int>
    /// Shared by every screen that shows it: one subscription to `inFlight` while any does.
    let isLoading: Signal<Bool>

    init() {
        let inFlight = MutableProperty(0)
        self.inFlight = inFlight
        let share = LoadingShare()
        let loading = inFlight.signal.map { $0 > 0 }
        isLoading = Signal { subscriber in
            let inner = share.subject.subscribe(next: { subscriber.sendNext($0) })
            let isFirst: Bool = share.state.withLock { state in
                state.count += 1
                return state.count == 1
            }
            if isFirst {
                let connection = loading.subscribe(next: { share.subject.sendNext($0) })
                share.state.withLock { $0.connection = connection }
            }
            return Disposable {
                inner.dispose()
                let last: Disposable? = share.state.withLock { state in
                    state.count -= 1
                    guard state.count == 0 else { return nil }
                    defer { state.connection = nil }
                    return state.connection
                }
                last?.dispose()
            }
        }
    }

    func begin() { inFlight.value += 1 }
    func end() { inFlight.value -= 1 }
}

final class APIClient: Sendable {
    static let shared = APIClient()
    let activity = ActivityTracker()

    /// A request, counted as in flight from its subscription to its response.
    func fetch(_ path: String, on scheduler: TestScheduler) -> Signal<String> {
        Signal { subscriber in
            self.activity.begin()
            return scheduler.schedule {
                self.activity.end()
                subscriber.sendNext("\(path): 3 items")
                subscriber.sendCompleted()
            }
        }
    }
}

/// The signed-in session, for the whole app: it follows the token refreshes itself, keeping
/// that subscription in its own state until the next sign-in replaces it.
final class SessionStore: Sendable {
    static let shared = SessionStore()
    let tokenRefreshes = Subject<String>()
    private let session = Mutex(Session())

    struct Session {
        var token = ""
        var following: Disposable?
    }

    var token: String { session.withLock { $0.token } }

    func signIn(token: String) {
        let following = tokenRefreshes.subscribeNext { refreshed in self.session.withLock { $0.token = refreshed } }
        let previous: Disposable? = session.withLock { session in
            defer { session = Session(token: token, following: following) }
            return session.following
        }
        previous?.dispose()
    }
}

final class LibraryScreen {
    var showsSpinner = false
    var pendingRequests = 0
    var items: [String] = []
    var loading: Disposable?

    func viewDidAppear() {
        loading = APIClient.shared.activity.isLoading.subscribeNext { [weak self] in self?.showsSpinner = $0 }
    }

    func viewDidDisappear() { loading?.dispose() }

    /// Shows how many requests are in flight, capturing itself, and drops the disposable.
    func viewDidAppearCountingRequests() {
        APIClient.shared.activity.inFlight.signal.subscribeNext { self.pendingRequests = $0 }
    }
}

extension LeakCorpus {
    static let globalOwnerScenarios: [(name: String, run: @Sendable () -> CorpusOutcome)] = [
        ("a screen following the API client's shared loading state until it closes", libraryFollowingLoading),
        ("a session store's own subscription to its token refreshes", sessionStoreFollowingRefreshes),
        ("a dismissed screen following the API client's request count, capturing itself, its disposable dropped", libraryCountingRequests),
    ]

    /// The screen appears, a request runs, the screen closes and is dropped: at the end the
    /// shared loading state has no subscriber of this recording's.
    private static func libraryFollowingLoading() -> CorpusOutcome {
        _ = APIClient.shared
        let scheduler = TestScheduler()
        let (trace, survived) = recordWatching {
            let screen = LibraryScreen()
            screen.viewDidAppear()
            APIClient.shared.fetch("library", on: scheduler).subscribeNext { [weak screen] in screen?.items.append($0) }
            scheduler.run()
            screen.viewDidDisappear()
            return screen
        }
        return CorpusOutcome(trace: trace, expected: [], watched: Watched(survived: survived, shouldSurvive: false))
    }

    /// The store signs in and a refresh arrives: its subscription is live at the end, held
    /// by the store, which the app holds.
    private static func sessionStoreFollowingRefreshes() -> CorpusOutcome {
        weak var store: SessionStore?
        store = SessionStore.shared
        let trace = Tracer.record {
            SessionStore.shared.signIn(token: "first")
            SessionStore.shared.tokenRefreshes.sendNext("refreshed")
        }
        return CorpusOutcome(trace: trace, expected: [], watched: Watched(survived: store != nil, shouldSurvive: true))
    }

    /// The subscription to the app's request count never ends and nothing can end it; it
    /// keeps the screen alive with it. The analysis reports this once, as the leaked
    /// subscription, at the line that made it.
    private static func libraryCountingRequests() -> CorpusOutcome {
        _ = APIClient.shared
        let scheduler = TestScheduler()
        let (trace, survived) = recordWatching {
            let screen = LibraryScreen()
            screen.viewDidAppearCountingRequests()
            APIClient.shared.fetch("library", on: scheduler).subscribeNext { [weak screen] in screen?.items.append($0) }
            scheduler.run()
            return screen
        }
        return CorpusOutcome(
            trace: trace, expected: [Expected(rule: .leakedSubscription, line: 119)],
            watched: Watched(survived: survived, shouldSurvive: true))
    }
}
