import SignalScopeTools

// Cycles through an app's navigation, written as apps write them: a navigation controller's
// stack holds screens, a screen its view model, the view model its network models, and
// each network model the navigation controller again, to push what it loads; a coordinator
// tree whose children hold their parent; a list view holding the screen that owns it as its
// delegate. No closure captures anything in these cycles: the fix is a stored property, and
// the finding is located at the declaration of the class that holds it (where `weak`
// goes), whichever object was made first (an app's root navigation controller is made at
// launch, before anything is recorded). Expected lines are this file's: keep its
// declarations where they are.

final class NavigationController {
    var stack: [OrderScreen] = []

    func push(_ screen: OrderScreen) { stack.append(screen) }
}

final class NetworkModel {
    /// Kept to push the screens of what it loads: a strong reference back to the app's
    /// navigation controller, which (through its stack) holds the model.
    var navigation: NavigationController?
    /// The fix: the navigation controller is the app's; the model only refers to it.
    weak var weakNavigation: NavigationController?
    let responses = Subject<String>()

    init(navigation: NavigationController, weakly: Bool) {
        if weakly { weakNavigation = navigation } else { self.navigation = navigation }
    }
}

final class OrderViewModel {
    let models: [NetworkModel]
    var status = ""
    var subscriptions: [Disposable] = []

    init(models: [NetworkModel]) { self.models = models }

    /// Follows every model's responses, weakly, keeping the disposables.
    func listen() {
        for model in models {
            subscriptions.append(model.responses.subscribeNext { [weak self] in self?.status = $0 })
        }
    }

    deinit { subscriptions.forEach { $0.dispose() } }
}

final class OrderScreen {
    let viewModel: OrderViewModel

    init(viewModel: OrderViewModel) { self.viewModel = viewModel }
}

/// The app's coordinator, holding the coordinators of its tabs.
final class AppCoordinator {
    var children: [TabCoordinator] = []
    let deepLinks = Subject<String>()

    func start(_ child: TabCoordinator) { children.append(child) }

    deinit { deepLinks.sendCompleted() }
}

final class TabCoordinator {
    var parent: AppCoordinator?
    weak var weakParent: AppCoordinator?
    var route = ""
    var following: Disposable?

    init(parent: AppCoordinator, weakly: Bool) {
        if weakly { weakParent = parent } else { self.parent = parent }
        following = parent.deepLinks.subscribeNext { [weak self] in self?.route = $0 }
    }
}

protocol ListViewDelegate: AnyObject {
    func listView(_ listView: ListView, didSelectRow row: Int)
}

final class ListView {
    var delegate: ListViewDelegate?
    weak var weakDelegate: ListViewDelegate?
    var rows: [String] = []

    func select(_ row: Int) { (delegate ?? weakDelegate)?.listView(self, didSelectRow: row) }
}

final class ContactsScreen: ListViewDelegate {
    let listView = ListView()
    let selectedName = MutableProperty("")

    func listView(_ listView: ListView, didSelectRow row: Int) { selectedName.value = listView.rows[row] }
}

extension LeakCorpus {
    static let navigationStackScenarios: [(name: String, run: @Sendable () -> CorpusOutcome)] = [
        ("network models holding the root navigation controller made at launch", {
            orderStack(madeAtLaunch: true, weakly: false, listening: false)
        }),
        ("network models referring weakly to the root navigation controller made at launch", {
            orderStack(madeAtLaunch: true, weakly: true, listening: false)
        }),
        ("network models holding the navigation controller made while recording", {
            orderStack(madeAtLaunch: false, weakly: false, listening: false)
        }),
        ("network models referring weakly to the navigation controller made while recording", {
            orderStack(madeAtLaunch: false, weakly: true, listening: false)
        }),
        ("network models holding the navigation controller, their subjects followed weakly", {
            orderStack(madeAtLaunch: true, weakly: false, listening: true)
        }),
        ("network models referring weakly to the navigation controller, their subjects followed weakly", {
            orderStack(madeAtLaunch: true, weakly: true, listening: true)
        }),
        ("tab coordinators holding their parent", { tabCoordinators(weakly: false) }),
        ("tab coordinators referring weakly to their parent", { tabCoordinators(weakly: true) }),
        ("a list view holding the screen that owns it as its delegate", { contacts(weakly: false) }),
        ("a list view referring weakly to its delegate", { contacts(weakly: true) }),
    ]

    /// The cycle's expected finding: at the declaration of the class whose property is the
    /// reference to make weak.
    private static func storedCycle(at line: Int, weakly: Bool) -> [Expected] {
        weakly ? [] : [Expected(rule: .retainCycle, line: line)]
    }

    /// A screen pushed on a navigation controller whose network models hold it (or refer to it
    /// weakly). Made at launch, the navigation controller's last outside reference (the
    /// window's) goes away inside the recording, as when the scene closes.
    private static func orderStack(madeAtLaunch: Bool, weakly: Bool, listening: Bool) -> CorpusOutcome {
        var root: NavigationController? = madeAtLaunch ? NavigationController() : nil
        weak var watched: OrderScreen?
        let trace = Tracer.record {
            let navigation = root ?? NavigationController()
            root = nil
            let models = [NetworkModel(navigation: navigation, weakly: weakly), NetworkModel(navigation: navigation, weakly: weakly)]
            let viewModel = OrderViewModel(models: models)
            if listening {
                viewModel.listen()
                models[0].responses.sendNext("shipped")
                models[1].responses.sendNext("delivered")
            }
            let screen = OrderScreen(viewModel: viewModel)
            navigation.push(screen)
            watched = screen
        }
        return CorpusOutcome(
            trace: trace, expected: storedCycle(at: 19, weakly: weakly), watched: Watched(survived: watched != nil, shouldSurvive: !weakly))
    }

    private static func tabCoordinators(weakly: Bool) -> CorpusOutcome {
        let (trace, survived) = recordWatching {
            let app = AppCoordinator()
            app.start(TabCoordinator(parent: app, weakly: weakly))
            app.start(TabCoordinator(parent: app, weakly: weakly))
            app.deepLinks.sendNext("orders/42")
            return app
        }
        return CorpusOutcome(
            trace: trace, expected: storedCycle(at: 65, weakly: weakly), watched: Watched(survived: survived, shouldSurvive: !weakly))
    }

    private static func contacts(weakly: Bool) -> CorpusOutcome {
        let (trace, survived) = recordWatching {
            let screen = ContactsScreen()
            if weakly { screen.listView.weakDelegate = screen } else { screen.listView.delegate = screen }
            screen.listView.rows = ["Ada", "Grace"]
            screen.listView.select(1)
            return screen
        }
        return CorpusOutcome(
            trace: trace, expected: storedCycle(at: 81, weakly: weakly), watched: Watched(survived: survived, shouldSurvive: !weakly))
    }
}
