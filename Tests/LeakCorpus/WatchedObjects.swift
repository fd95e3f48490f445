import SignalScopeTools
import Synchronization

// Objects the app says should be gone (a dismissed screen), kept alive through each leak
// rule's pattern: one leak, one finding, the pattern's, at the line where the fix goes, which
// says what the app declared; kept by nothing a pattern explains (a global cache), the
// finding is retained-after-release at the declaration. Each fixed twin is freed and
// unreported. Expected lines are this file's: keep its declarations where they are.

final class DismissedScreen {
    var refreshes = 0
    var subscription: Disposable?

    /// Follows the app's bus, capturing self, and drops the disposable: the bus keeps it.
    func followCapturingSelf() { AppEvents.bus.subscribeNext { _ in self.refreshes += 1 } }
    func followWeakly() { subscription = AppEvents.bus.subscribeNext { [weak self] _ in self?.refreshes += 1 } }

    deinit { subscription?.dispose() }
}

/// An editor observing its own property, capturing self: the property's signal keeps it.
final class ProfileEditor {
    let name = MutableProperty("")
    var saved = ""

    func bindCapturingSelf() { name.signal.subscribeNext { self.saved = $0 } }
    func bindWeakly() { name.signal.subscribeNext { [weak self] in self?.saved = $0 } }
}

/// Two screens observing each other's property: each one's subscription keeps the other.
final class PairedScreen {
    let name = MutableProperty("")
    var partner: PairedScreen?

    static func pair(weakly: Bool) -> PairedScreen {
        let first = PairedScreen(), second = PairedScreen()
        if weakly {
            first.name.signal.subscribeNext { [weak second] _ in second?.partner = nil }
            second.name.signal.subscribeNext { [weak first] _ in first?.partner = nil }
        } else {
            first.name.signal.subscribeNext { _ in second.partner = nil }
            second.name.signal.subscribeNext { _ in first.partner = nil }
        }
        return first
    }
}

/// A screen counting the updates of a subject made for it: never completed, the subject's
/// subscription keeps the screen.
final class CounterScreen {
    var count = 0

    static func counting(completes: Bool) -> CounterScreen {
        let screen = CounterScreen()
        let updates = Subject<Int>()
        updates.subscribeNext { _ in screen.count += 1 }
        updates.sendNext(1)
        if completes { updates.sendCompleted() }
        return screen
    }
}

/// Screens kept in a cache the app keeps for its whole run, so that showing one again is
/// quick: a dismissed screen stays unless the cache evicts it. No signal is involved.
final class CachedScreen: Sendable {
    static let cache = Mutex<[ObjectIdentifier: CachedScreen]>([:])

    static func showing(evicts: Bool) -> CachedScreen {
        let screen = CachedScreen()
        cache.withLock { $0[ObjectIdentifier(screen)] = screen }
        if evicts { _ = cache.withLock { $0.removeValue(forKey: ObjectIdentifier(screen)) } }
        return screen
    }
}

extension LeakCorpus {
    static let watchedObjectScenarios: [(name: String, run: @Sendable () -> CorpusOutcome)] = [
        ("dismissed screen the app's bus keeps", {
            dismissed(leaky: true, at: Expected(rule: .leakedSubscription, line: 15)) {
                let screen = DismissedScreen()
                screen.followCapturingSelf()
                return screen
            }
        }),
        ("dismissed screen following the bus weakly", {
            dismissed(leaky: false) {
                let screen = DismissedScreen()
                screen.followWeakly()
                return screen
            }
        }),
        ("dismissed editor observing itself", {
            dismissed(leaky: true, at: Expected(rule: .selfCapturedObserver, line: 26)) {
                let editor = ProfileEditor()
                editor.bindCapturingSelf()
                return editor
            }
        }),
        ("dismissed editor observing itself weakly", {
            dismissed(leaky: false) {
                let editor = ProfileEditor()
                editor.bindWeakly()
                return editor
            }
        }),
        ("dismissed screens observing each other", {
            dismissed(leaky: true, at: Expected(rule: .retainCycle, line: 42)) { PairedScreen.pair(weakly: false) }
        }),
        ("dismissed screens observing each other weakly", { dismissed(leaky: false) { PairedScreen.pair(weakly: true) } }),
        ("dismissed screen of a subject never completed", {
            dismissed(leaky: true, at: Expected(rule: .neverCompletedSubject, line: 55)) { CounterScreen.counting(completes: false) }
        }),
        ("dismissed screen of a subject completed", { dismissed(leaky: false) { CounterScreen.counting(completes: true) } }),
        ("dismissed screen a global cache of screens keeps", { dismissed(leaky: true) { CachedScreen.showing(evicts: false) } }),
        ("dismissed screen the global cache evicts", { dismissed(leaky: false) { CachedScreen.showing(evicts: true) } }),
    ]

    /// Records `scene`, which sets up a screen, and watches that screen until recording ends,
    /// as an app would once it dismissed it; a leaky scene's one finding is `pattern`'s, or
    /// retained-after-release at the declaration when no pattern explains what keeps it.
    private static func dismissed(leaky: Bool, at pattern: Expected? = nil, _ scene: () -> AnyObject) -> CorpusOutcome {
        weak var watched: AnyObject?
        let line = #line + 5
        let trace = Tracer.record {
            let screen = scene()
            watched = screen
            Tracer.expectDeallocationWhenRecordingEnds(
                of: screen, because: "the screen was dismissed", site: SourceLocation(fileID: #fileID, line: #line, function: #function))
        }
        let expected = leaky ? [pattern ?? Expected(rule: .retainedAfterRelease, line: line)] : []
        return CorpusOutcome(trace: trace, expected: expected, watched: Watched(survived: watched != nil, shouldSurvive: leaky))
    }
}
