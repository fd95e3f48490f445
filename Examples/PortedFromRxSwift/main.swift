// A repository search view model from an RxSwift app, ported line by line (the original is in
// docs/porting.md): PublishSubject becomes `Signal.pipe()`, BehaviorRelay a MutableProperty,
// `debounce` is `throttle`, `flatMapLatest` is `map` + `switchToLatest`, `share()` stays,
// `withLatestFrom` is `withLatest(from:)`, `compactMap { $0 }` is `skipNil()`, and the
// DisposeBag a CompoundDisposable disposed in `deinit`. `--leaky` captures `self` strongly in
// one closure, as the port would if `[weak self]` were dropped.
import Foundation
import SignalScope

let leaky = CommandLine.arguments.contains("--leaky")
let network = TestScheduler()

struct Repository { let name: String }

/// The app's API: a search that answers after a moment.
struct GitHubAPI {
    func search(_ query: String) -> Signal<[Repository]> {
        Signal<[Repository]> { subscriber in
            let reply = network.schedule(after: network.now.addingTimeInterval(0.2)) {
                subscriber.sendNext(["\(query)-kit", "\(query).swift"].map(Repository.init))
                subscriber.sendCompleted()
            }
            return Disposable { reply?.dispose() }
        }
    }
}

final class RepositorySearchViewModel {
    // Inputs.
    let (queries, query) = Signal<String>.pipe()
    let (selections, select) = Signal<Int?>.pipe()
    let (refreshes, refresh) = Signal<Void>.pipe()

    // Outputs.
    let results: Signal<[Repository]>
    let isLoading = MutableProperty(false)
    private(set) var summary = ""
    private(set) var opened: [String] = []
    private let disposables = CompoundDisposable()

    init(api: GitHubAPI) {
        let typed = queries
            .throttle(0.3, on: network)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .distinctUntilChanged()
            .filter { $0.count >= 2 }
        let searches = Signal.merge([typed, typed.sample(on: refreshes)])
        results = searches
            .doNext { [isLoading] _ in isLoading.value = true }
            .map { query in api.search(query).catchTo(.just([])) }
            .switchToLatest()
            .doNext { [isLoading] _ in isLoading.value = false }
            .share()
        if leaky {
            disposables.add(results.map(\.count).subscribeNext { count in self.summary = "\(count) repositories" })  // planted: self-captured-observer
        } else {
            disposables.add(results.map(\.count).subscribeNext { [weak self] count in self?.summary = "\(count) repositories" })
        }
        disposables.add(selections.skipNil().withLatest(from: results).subscribeNext { [weak self] index, repositories in
            guard repositories.indices.contains(index) else { return }
            self?.opened.append(repositories[index].name)
        })
    }

    deinit {
        disposables.dispose()
        print("RepositorySearchViewModel freed")
    }
}

func search() {
    let viewModel = RepositorySearchViewModel(api: GitHubAPI())
    var shown: [String] = []
    let list = viewModel.results.subscribeNext { shown = $0.map(\.name) }
    for text in ["r", "rx", "rxs"] {
        viewModel.query.sendNext(text)
        network.advance(by: 0.1)
    }
    network.advance(by: 1)
    viewModel.refresh.sendNext(())
    network.advance(by: 1)
    viewModel.select.sendNext(nil)
    viewModel.select.sendNext(1)
    print("shown: \(shown), \(viewModel.summary), opened \(viewModel.opened)")
    list.dispose()
}

search()
