import SignalScopeTools

// Cycles that run through the app's plain objects, with or without a signal inside: found
// because the closing walk starts from every object the recorded code allocated, not only
// from what signals reach. The finding is located at the class that holds the reference
// most likely meant to be weak (a back-reference: a delegate, a parent, a navigation
// stack), where `weak` goes.

final class NavigationStack {
    var screens: [AnyObject] = []
}

final class AccountModel {
    var navigation: NavigationStack?
    weak var weakNavigation: NavigationStack?
    /// Never subscribed: the walk still finds it, kept by the cycle.
    let refreshes = Subject<Void>()
}

final class AccountViewModel {
    let model: AccountModel
    let title = MutableProperty("Account")
    init(model: AccountModel) { self.model = model }
}

final class AccountScreen {
    let viewModel: AccountViewModel
    init(viewModel: AccountViewModel) { self.viewModel = viewModel }
}

final class FlowCoordinator {
    var parent: FlowCoordinator?
    weak var weakParent: FlowCoordinator?
    var children: [FlowCoordinator] = []

    func start(child: FlowCoordinator, strongly: Bool) {
        if strongly { child.parent = self } else { child.weakParent = self }
        children.append(child)
    }
}

protocol ListAdapterDelegate: AnyObject {
    func didSelect(_ row: Int)
}

final class ListAdapter {
    var delegate: ListAdapterDelegate?
    weak var weakDelegate: ListAdapterDelegate?
    var rows: [String] = []
}

final class ListScreen: ListAdapterDelegate {
    let adapter = ListAdapter()
    let selection = MutableProperty(0)
    func didSelect(_ row: Int) { selection.value = row }
}

/// No signal at all: a cycle LeakSanitizer reports too.
final class Spouse {
    var partner: Spouse?
    weak var weakPartner: Spouse?
}

extension LeakCorpus {
    static let plainObjectCycleScenarios: [(name: String, run: @Sendable () -> CorpusOutcome)] = [
        ("a model's strong reference back to the navigation stack", { navigation(weakly: false) }),
        ("a model's weak reference back to the navigation stack", { navigation(weakly: true) }),
        ("child coordinators with a strong parent", { coordinators(weakly: false) }),
        ("child coordinators with a weak parent", { coordinators(weakly: true) }),
        ("a strong delegate", { delegate(weakly: false) }),
        ("a weak delegate", { delegate(weakly: true) }),
        ("two objects holding each other, no signal", { spouses(weakly: false) }),
        ("two objects, one holding the other weakly, no signal", { spouses(weakly: true) }),
    ]

    private static func plainCycle(at line: Int, weakly: Bool) -> [Expected] {
        weakly ? [] : [Expected(rule: .retainCycle, line: line)]
    }

    private static func navigation(weakly: Bool) -> CorpusOutcome {
        let (trace, survived) = recordWatching {
            let stack = NavigationStack()
            let model = AccountModel()
            if weakly { model.weakNavigation = stack } else { model.navigation = stack }
            let screen = AccountScreen(viewModel: AccountViewModel(model: model))
            stack.screens.append(screen)
            return screen
        }
        return CorpusOutcome(
            trace: trace, expected: plainCycle(at: 13, weakly: weakly), watched: Watched(survived: survived, shouldSurvive: !weakly))
    }

    private static func coordinators(weakly: Bool) -> CorpusOutcome {
        let (trace, survived) = recordWatching {
            let app = FlowCoordinator()
            app.start(child: FlowCoordinator(), strongly: !weakly)
            app.start(child: FlowCoordinator(), strongly: !weakly)
            return app
        }
        return CorpusOutcome(
            trace: trace, expected: plainCycle(at: 31, weakly: weakly), watched: Watched(survived: survived, shouldSurvive: !weakly))
    }

    private static func delegate(weakly: Bool) -> CorpusOutcome {
        let (trace, survived) = recordWatching {
            let screen = ListScreen()
            if weakly { screen.adapter.weakDelegate = screen } else { screen.adapter.delegate = screen }
            screen.adapter.delegate?.didSelect(1)
            return screen
        }
        return CorpusOutcome(
            trace: trace, expected: plainCycle(at: 46, weakly: weakly), watched: Watched(survived: survived, shouldSurvive: !weakly))
    }

    private static func spouses(weakly: Bool) -> CorpusOutcome {
        let (trace, survived) = recordWatching {
            let first = Spouse()
            let second = Spouse()
            first.partner = second
            if weakly { second.weakPartner = first } else { second.partner = first }
            return first
        }
        return CorpusOutcome(
            trace: trace, expected: plainCycle(at: 59, weakly: weakly), watched: Watched(survived: survived, shouldSurvive: !weakly))
    }
}
