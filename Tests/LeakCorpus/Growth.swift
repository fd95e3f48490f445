import SignalScopeTools
import Synchronization

// Leaks that grow: a screen opened and closed again and again leaves one more thing behind
// each time, held by something that lives for the whole run (a session's subject and its
// disposable bag, a static cache, a theme registry). No cycle shows them and nothing
// declared them: only counting across repetitions does. Beside each, its fixed twin, and two
// programs that grow only at first (a cache filled once, a pool of recent screens with a
// bound). A scenario runs in an app of its own (`GrowthScenario.App`), whose long-lived
// holders its first repetition makes, so that a recording that repeats the scenario made
// them, and runs beside others never share them. Expected lines are this file's: keep
// its declarations where they are.

/// The app's session: a subject of logins for the whole run, and the bag of subscriptions
/// the app disposes at logout.
final class GrowthSession: Sendable {
    let logins = Subject<String>()
    let bag = CompoundDisposable()
}

/// Screens by id, kept for a quick return: evicting them is the screen's job. Used from one
/// thread at a time, as an app's main-thread cache is.
final class ThumbnailCache: @unchecked Sendable {
    private var screens: [Int: GrowthScreen] = [:]
    private(set) var hits = 0

    func keep(_ screen: GrowthScreen) { screens[screen.id] = screen }
    func evict(_ screen: GrowthScreen) { screens[screen.id] = nil }
    func screen(_ id: Int) -> GrowthScreen? {
        hits += 1
        return screens[id]
    }
}

/// Observers of the app's theme, called when it changes.
final class ThemeRegistry: @unchecked Sendable {
    var observers: [Int: () -> Void] = [:]
}

/// Something costly that every screen shares, made once.
final class ProfileFormatter: Sendable {}

/// The screens shown lately, at most two.
final class RecentScreens: @unchecked Sendable {
    var screens: [GrowthScreen] = []
}

final class GrowthScreen: Sendable {
    let id: Int
    let user = Mutex("")
    let lifetime: Lifetime
    private let token: Lifetime.Token

    init(id: Int) {
        self.id = id
        (lifetime, token) = Lifetime.make()
    }

    func applyTheme() { user.withLock { $0 += "" } }
}

/// One of the scenarios, repeated by a growth check (`expectNoSignalGrowth`) or by a program
/// that marks `Tracer.checkpoint` after each repetition (`signalscope-corpus --repeat`).
public enum GrowthScenario: String, CaseIterable, Sendable {
    /// A screen follows the session's logins weakly and puts the subscription in the
    /// session's bag, which is disposed only at logout: one more live subscription each time.
    case sessionSubscriptions = "session-subscriptions"
    /// A screen puts itself in a static cache and never evicts itself.
    case staticCache = "static-cache"
    /// A screen registers a theme observer that captures it and never unregisters.
    case observerRegistry = "observer-registry"
    /// Every screen uses a formatter made by the first: the cache fills once.
    case filledOnce = "filled-once"
    /// The app keeps the two most recent screens: the pool stops at its bound.
    case boundedPool = "bounded-pool"

    /// The app a scenario runs in: what lives for its whole run (made by the first repetition
    /// that needs it), and what the ground truth reads: the screens made, weakly, and how many
    /// observers a login reached.
    public final class App: Sendable {
        fileprivate let holders = Mutex(Holders())
        let screens = Mutex<[WeakBox]>([])
        /// How many observers the logins sent reached.
        public let loginsSeen = Atomic<Int>(0)

        public init() {}

        /// How many of the screens made are still alive.
        public var screensAlive: Int { screens.withLock { $0.filter { $0.object != nil }.count } }

        /// Sends a login to the session, if the app has one: what still follows it counts it.
        public func sendLogin() {
            holders.withLock { $0.session }?.logins.sendNext("ada")
        }

        /// The holder at `path`, made on first use.
        fileprivate func holder<Holder: Sendable>(_ path: WritableKeyPath<Holders, Holder?>, _ make: () -> Holder) -> Holder {
            holders.withLock { holders in
                if let holder = holders[keyPath: path] { return holder }
                let holder = make()
                holders[keyPath: path] = holder
                return holder
            }
        }
    }

    /// A struct, so that the app adds no object of its own per repetition.
    struct WeakBox: Sendable {
        weak var object: GrowthScreen?
        init(_ object: GrowthScreen) { self.object = object }
    }

    /// Whether it leaks (its twin, fixed, does not).
    public var leaks: Bool { self != .filledOnce && self != .boundedPool }

    /// The finding the leaky form must produce: its rule and line.
    public var expected: CorpusOutcome.Expected? {
        switch self {
        case .sessionSubscriptions: CorpusOutcome.Expected(rule: .growsPerRepetition, line: 163)
        case .staticCache: CorpusOutcome.Expected(rule: .growsPerRepetition, line: 23)
        case .observerRegistry: CorpusOutcome.Expected(rule: .growsPerRepetition, line: 170)
        case .filledOnce, .boundedPool: nil
        }
    }

    fileprivate struct Holders: Sendable {
        var session: GrowthSession?
        var cache: ThumbnailCache?
        var registry: ThemeRegistry?
        var formatter: ProfileFormatter?
        var recent: RecentScreens?
        var opened = 0
    }

    /// Opens a screen and closes it again, as the app does (`fixed`: as the app should).
    public func openAndClose(fixed: Bool, in app: App) {
        let id = app.holders.withLock { holders in
            holders.opened += 1
            return holders.opened
        }
        let screen = GrowthScreen(id: id)
        app.screens.withLock { $0.append(WeakBox(screen)) }
        switch self {
        case .sessionSubscriptions:
            follow(app.holder(\.session, GrowthSession.init), from: screen, fixed: fixed, app: app)
        case .staticCache:
            let cache = app.holder(\.cache, ThumbnailCache.init)
            cache.keep(screen)
            if fixed { cache.evict(screen) }
        case .observerRegistry:
            register(screen, in: app.holder(\.registry, ThemeRegistry.init), fixed: fixed)
        case .filledOnce:
            _ = app.holder(\.formatter, ProfileFormatter.init)
        case .boundedPool:
            let recent = app.holder(\.recent, RecentScreens.init)
            recent.screens.append(screen)
            if recent.screens.count > 2 { recent.screens.removeFirst() }
        }
    }

    private func follow(_ session: GrowthSession, from screen: GrowthScreen, fixed: Bool, app: App) {
        let logins: Signal<String> = fixed ? session.logins.takeUntil(screen.lifetime.ended) : session.logins
        session.bag.add(logins.subscribeNext { [weak screen] user in
            app.loginsSeen.add(1, ordering: .relaxed)
            screen?.user.withLock { $0 = user }
        })
    }

    private func register(_ screen: GrowthScreen, in registry: ThemeRegistry, fixed: Bool) {
        registry.observers[screen.id] = { screen.applyTheme() }
        if fixed { registry.observers[screen.id] = nil }
    }
}

extension GrowthScenario {
    private static let apps = Mutex<[App]>([])

    /// Repetitions a recording makes of a scenario, with a checkpoint after each.
    public static let repetitions = 5

    /// Records `repetitions` of the scenario in a new app, with a checkpoint after each; then
    /// sends a login, so that the app knows what still follows it.
    public func repeated(fixed: Bool) -> (trace: Trace, app: App) {
        let app = App()
        let trace = Tracer.record {
            for _ in 0..<Self.repetitions {
                openAndClose(fixed: fixed, in: app)
                Tracer.checkpoint("screen closed")
            }
        }
        app.sendLogin()
        return (trace, app)
    }

    /// The scenario as the leak corpus runs it: the ground truth is whether what every
    /// repetition added is still there (every screen, or every subscription a login reaches).
    func corpusOutcome(fixed: Bool) -> CorpusOutcome {
        let (trace, app) = repeated(fixed: fixed)
        // The app lives as long as the process, as an app's session, caches and registries do:
        // what it holds stays in memory for the checks that read it after the scenario.
        Self.apps.withLock { $0.append(app) }
        let leftEveryRepetition = app.screensAlive == Self.repetitions || app.loginsSeen.load(ordering: .relaxed) == Self.repetitions
        return CorpusOutcome(
            trace: trace, expected: fixed ? [] : expected.map { [$0] } ?? [],
            watched: .init(survived: leftEveryRepetition, shouldSurvive: leaks && !fixed))
    }
}

extension LeakCorpus {
    static let growthScenarios: [(name: String, run: @Sendable () -> CorpusOutcome)] = GrowthScenario.allCases.flatMap {
        scenario -> [(name: String, run: @Sendable () -> CorpusOutcome)] in
        let leaky: @Sendable () -> CorpusOutcome = { scenario.corpusOutcome(fixed: false) }
        let fixed: @Sendable () -> CorpusOutcome = { scenario.corpusOutcome(fixed: true) }
        return [("\(scenario.rawValue), repeated", leaky)] + (scenario.leaks ? [("\(scenario.rawValue) fixed, repeated", fixed)] : [])
    }
}
