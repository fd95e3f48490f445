import SignalScopeTools

// Cycles that close through an object no observer captures: a child the screen stores, a
// router that points back at the coordinator owning it.

final class ProfileHeader {
    let avatarTaps = Subject<Void>()
    var onFollow: (() -> Void)?
    deinit { avatarTaps.sendCompleted() }
}

final class ProfileScreen {
    let header = ProfileHeader()
    let name = MutableProperty("")
    var title = ""
    var opened = 0

    /// The child's subject keeps the observer, which keeps the screen, which keeps the child.
    func bindHeaderCapturingSelf() {
        header.avatarTaps.subscribeNext { _ in self.opened += 1 }
    }

    func bindHeaderWeakly() {
        header.avatarTaps.subscribeNext { [weak self] _ in self?.opened += 1 }
    }

    /// A plain callback on the child, next to a subscription that captures the screen weakly.
    func bindCallbackCapturingSelf() {
        header.onFollow = { self.opened += 1 }
        name.signal.subscribeNext { [weak self] in self?.title = $0 }
    }

    func bindCallbackWeakly() {
        header.onFollow = { [weak self] in self?.opened += 1 }
        name.signal.subscribeNext { [weak self] in self?.title = $0 }
    }
}

final class Router {
    var coordinator: Coordinator?
    weak var weakCoordinator: Coordinator?
    let routes = Subject<String>()
    var current = ""
    deinit { routes.sendCompleted() }
}

final class Coordinator {
    let router = Router()

    /// The router keeps a strong back-reference to the coordinator that owns it.
    func startWithStrongBackReference() {
        router.coordinator = self
        router.routes.subscribeNext { [weak router] in router?.current = $0 }
    }

    func startWithWeakBackReference() {
        router.weakCoordinator = self
        router.routes.subscribeNext { [weak router] in router?.current = $0 }
    }
}

/// `A.child = B` and B's subscription captures A.
final class Parent {
    var child: Child?
}

final class Child {
    let updates = Subject<Int>()
    var observation: Disposable?
    deinit { updates.sendCompleted() }

    func attach(to parent: Parent) {
        observation = updates.subscribeNext { _ in _ = parent.child }
    }

    func attachWeakly(to parent: Parent) {
        observation = updates.subscribeNext { [weak parent] _ in _ = parent?.child }
    }
}

extension LeakCorpus {
    static let cycleScenarios: [(name: String, run: @Sendable () -> CorpusOutcome)] = [
        ("child's observer capturing the screen", { profile(ProfileScreen.bindHeaderCapturingSelf, cycleAt: 20) }),
        ("child's observer capturing the screen weakly", { profile(ProfileScreen.bindHeaderWeakly, cycleAt: nil) }),
        ("child's callback capturing the screen", { profile(ProfileScreen.bindCallbackCapturingSelf, cycleAt: 29) }),
        ("child's callback capturing the screen weakly", { profile(ProfileScreen.bindCallbackWeakly, cycleAt: nil) }),
        ("router with a strong back-reference", { coordinator(Coordinator.startWithStrongBackReference, cycleAt: 44) }),
        ("router with a weak back-reference", { coordinator(Coordinator.startWithWeakBackReference, cycleAt: nil) }),
        ("child's subscription capturing its parent", { parentAndChild(Child.attach, cycleAt: 73) }),
        ("child's subscription capturing its parent weakly", { parentAndChild(Child.attachWeakly, cycleAt: nil) }),
    ]

    private static func cycle(at line: Int?) -> [Expected] { line.map { [Expected(rule: .retainCycle, line: $0)] } ?? [] }

    private static func profile(_ bind: (ProfileScreen) -> () -> Void, cycleAt line: Int?) -> CorpusOutcome {
        let (trace, survived) = recordWatching {
            let screen = ProfileScreen()
            bind(screen)()
            screen.name.value = "Ada"
            return screen
        }
        return CorpusOutcome(trace: trace, expected: cycle(at: line), watched: Watched(survived: survived, shouldSurvive: line != nil))
    }

    private static func coordinator(_ start: (Coordinator) -> () -> Void, cycleAt line: Int?) -> CorpusOutcome {
        let (trace, survived) = recordWatching {
            let coordinator = Coordinator()
            start(coordinator)()
            coordinator.router.routes.sendNext("home")
            return coordinator
        }
        return CorpusOutcome(trace: trace, expected: cycle(at: line), watched: Watched(survived: survived, shouldSurvive: line != nil))
    }

    private static func parentAndChild(_ attach: (Child) -> (Parent) -> Void, cycleAt line: Int?) -> CorpusOutcome {
        let (trace, survived) = recordWatching {
            let parent = Parent()
            let child = Child()
            parent.child = child
            attach(child)(parent)
            child.updates.sendNext(1)
            return parent
        }
        return CorpusOutcome(trace: trace, expected: cycle(at: line), watched: Watched(survived: survived, shouldSurvive: line != nil))
    }
}
