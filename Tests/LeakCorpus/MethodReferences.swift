import SignalScopeTools

// A method passed where a closure is expected (`map(formatPosition)`, `subscribeNext(show)`)
// is a closure that holds its receiver: a screen that binds its own methods to sources the
// app keeps running, and keeps the disposables in its own bag, is kept alive by those
// sources and keeps the only handles that could end them. One leak, one finding: located at
// the first method reference of the binding, the others named in it. Expected lines are
// this file's: keep its declarations where they are.

/// The system's remote controls (headphones, the lock screen): one for the app, never
/// completed.
final class RemoteCommandCenter: Sendable {
    static let shared = RemoteCommandCenter()
    let seekCommands = Subject<Double>()
}

/// The app's player: it sends the playback position for as long as the app runs.
final class PlayerService {
    let positions = Subject<Double>()
}

/// `object.method` as a closure that refers to `object` weakly: it does nothing once
/// `object` is gone.
func weakly<Object: AnyObject, Input>(_ object: Object, _ method: @escaping (Object) -> (Input) -> Void) -> (Input) -> Void {
    { [weak object] input in
        if let object { method(object)(input) }
    }
}

/// `object.method` as a closure that refers to `object` weakly, returning `otherwise` once
/// `object` is gone.
func weakly<Object: AnyObject, Input, Output>(
    _ object: Object, _ method: @escaping (Object) -> (Input) -> Output, otherwise: Output
) -> (Input) -> Output {
    { [weak object] input in object.map { method($0)(input) } ?? otherwise }
}

final class PlayerScreen {
    let player: PlayerService
    let bag = CompoundDisposable()
    var positionText = ""
    var seekTarget = 0.0

    init(player: PlayerService) { self.player = player }

    /// Its own methods as the transform and the observers.
    func bindWithMethods() {
        bag.add(player.positions
            .map(formatPosition)
            .subscribeNext(show))
        bag.add(RemoteCommandCenter.shared.seekCommands
            .subscribeNext(seek))
    }

    func bindWithWeakClosures() {
        bag.add(player.positions
            .map { [weak self] in self?.formatPosition($0) ?? "" }
            .subscribeNext { [weak self] in self?.show($0) })
        bag.add(RemoteCommandCenter.shared.seekCommands
            .subscribeNext { [weak self] in self?.seek($0) })
    }

    func bindWithWeakMethods() {
        bag.add(player.positions
            .map(weakly(self, PlayerScreen.formatPosition, otherwise: ""))
            .subscribeNext(weakly(self, PlayerScreen.show)))
        bag.add(RemoteCommandCenter.shared.seekCommands
            .subscribeNext(weakly(self, PlayerScreen.seek)))
    }

    func formatPosition(_ seconds: Double) -> String {
        let whole = Int(seconds)
        let secondsText = whole % 60 < 10 ? "0\(whole % 60)" : "\(whole % 60)"
        return "\(whole / 60):\(secondsText)"
    }

    func show(_ text: String) { positionText = text }

    func seek(_ seconds: Double) { seekTarget = seconds }

    deinit { bag.dispose() }
}

extension LeakCorpus {
    static let methodReferenceScenarios: [(name: String, run: @Sendable () -> CorpusOutcome)] = [
        ("a screen binding its own methods as transform and observers", { player(PlayerScreen.bindWithMethods, leakAt: 49) }),
        ("a screen binding closures that call its methods through [weak self]", { player(PlayerScreen.bindWithWeakClosures, leakAt: nil) }),
        ("a screen binding its methods through a weak wrapper", { player(PlayerScreen.bindWithWeakMethods, leakAt: nil) }),
    ]

    /// The remote command center and the player are the app's, made at launch and alive for
    /// its whole run; the scenario drops the screen.
    private static func player(_ bind: (PlayerScreen) -> () -> Void, leakAt line: Int?) -> CorpusOutcome {
        _ = RemoteCommandCenter.shared
        let service = PlayerService()
        let (trace, survived) = recordWatching {
            let screen = PlayerScreen(player: service)
            bind(screen)()
            service.positions.sendNext(61)
            service.positions.sendNext(62)
            return screen
        }
        withExtendedLifetime(service) {}
        return CorpusOutcome(
            trace: trace, expected: line.map { [Expected(rule: .selfCapturedObserver, line: $0)] } ?? [],
            watched: Watched(survived: survived, shouldSurvive: line != nil))
    }
}
