import SignalScopeTools
import Synchronization

// Leaks that grow: a screen opened and closed again and again leaves one more thing behind
// each time, held by something that lives for the whole run (a session's subject and its
// disposable bag, a static cache, a theme registry). No cycle shows them and nothing
// declared them: only counting across repetitions does. Beside each, its fixed twin, and two
// programs that grow only at first (a cache filled once, a pool of recent screens with a
// bound). Each scenario's app-long holder is made on first use and dropped by `reset()`, so
// that a recording that repeats the scenario made it (tests of one scenario run one at a
// time). Expected lines are this file's: keep
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
    var screens: [Int: GrowthScreen] = [:]
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

    /// What the scenario leaves behind, made by its repetitions: for the ground truth.
    public final class Witness: Sendable {
        let screens = Mutex<[WeakBox]>([])
        /// How many observers a login reached when the witness asked.
        public let loginsSeen = Atomic<Int>(0)

        public init() {}

        /// How many of the screens made are still alive.
        public var screensAlive: Int { screens.withLock { $0.filter { $0.object != nil }.count } }
    }

    /// A struct, so that the witness adds no object of its own per repetition.
    struct WeakBox: Sendable {
        weak var object: GrowthScreen?
        init(_ object: GrowthScreen) { self.object = object }
    }

    /// Whether it leaks (its twin, fixed, does not).
    public var leaks: Bool { self != .filledOnce && self != .boundedPool }

    /// The finding the leaky form must produce: its rule and line.
    public var expected: CorpusOutcome.Expected? {
        switch self {
        case .sessionSubscriptions: CorpusOutcome.Expected(rule: .growsPerRepetition, line: 169)
        case .staticCache: CorpusOutcome.Expected(rule: .growsPerRepetition, line: 23)
        case .observerRegistry: CorpusOutcome.Expected(rule: .growsPerRepetition, line: 181)
        case .filledOnce, .boundedPool: nil
        }
    }

    private static let holders = Mutex(Holders())

    private struct Holders: Sendable {
        var session: GrowthSession?
        var cache: ThumbnailCache?
        var registry: ThemeRegistry?
        var formatter: ProfileFormatter?
        var recent: RecentScreens?
        var opened = 0
    }

    /// Forgets this scenario's app-long holder, so that its next repetition makes it again.
    public func reset() {
        Self.holders.withLock { holders in
            switch self {
            case .sessionSubscriptions: holders.session = nil
            case .staticCache: holders.cache = nil
            case .observerRegistry: holders.registry = nil
            case .filledOnce: holders.formatter = nil
            case .boundedPool: holders.recent = nil
            }
        }
    }

    /// Opens a screen and closes it again, as the app does (`fixed`: as the app should).
    public func openAndClose(fixed: Bool, witness: Witness) {
        let id = Self.holders.withLock { holders in
            holders.opened += 1
            return holders.opened
        }
        let screen = GrowthScreen(id: id)
        witness.screens.withLock { $0.append(WeakBox(screen)) }
        switch self {
        case .sessionSubscriptions:
            let session = Self.holders.withLock { holders in
                if holders.session == nil { holders.session = GrowthSession() }
                return holders.session!
            }
            follow(session, from: screen, fixed: fixed, witness: witness)
        case .staticCache:
            let cache = Self.holders.withLock { holders in
                if holders.cache == nil { holders.cache = ThumbnailCache() }
                return holders.cache!
            }
            cache.screens[id] = screen
            if fixed { cache.screens[id] = nil }
        case .observerRegistry:
            let registry = Self.holders.withLock { holders in
                if holders.registry == nil { holders.registry = ThemeRegistry() }
                return holders.registry!
            }
            register(screen, in: registry, fixed: fixed)
        case .filledOnce:
            _ = Self.holders.withLock { holders in
                if holders.formatter == nil { holders.formatter = ProfileFormatter() }
                return holders.formatter!
            }
        case .boundedPool:
            let recent = Self.holders.withLock { holders in
                if holders.recent == nil { holders.recent = RecentScreens() }
                return holders.recent!
            }
            recent.screens.append(screen)
            if recent.screens.count > 2 { recent.screens.removeFirst() }
        }
    }

    private func follow(_ session: GrowthSession, from screen: GrowthScreen, fixed: Bool, witness: Witness) {
        let logins: Signal<String> = fixed ? session.logins.takeUntil(screen.lifetime.ended) : session.logins
        session.bag.add(logins.subscribeNext { [weak screen] user in
            witness.loginsSeen.add(1, ordering: .relaxed)
            screen?.user.withLock { $0 = user }
        })
    }

    /// Sends a login to the session, if the scenario has one: what still follows it counts it.
    public static func sendLogin() {
        holders.withLock { $0.session }?.logins.sendNext("ada")
    }

    private func register(_ screen: GrowthScreen, in registry: ThemeRegistry, fixed: Bool) {
        registry.observers[screen.id] = { screen.applyTheme() }
        if fixed { registry.observers[screen.id] = nil }
    }
}
