// A search screen written as Combine code (OpenCombine), traced with no change to it: linking
// SignalScopeOpenCombine and SignalScopeAutoTrace is all it takes (`signalscope check -- swift
// run CombineSearch`). The view model takes its query from a `@Published` property, waits for
// typing to settle (`debounce`), asks a service for results (`flatMap` into a `Future`), and
// shows a status line. The leak: `assign(to:on: self)` with the cancellable stored on self, so
// the subscriber holds the view model that holds it. `--fixed` assigns through a sink that
// captures self weakly.
#if OpenCombineAdapter
import OpenCombine

let fixed = CommandLine.arguments.contains("--fixed")

final class SearchService {
    func search(_ query: String) -> Future<[String], Never> {
        Future { promise in promise(.success(["\(query) guide", "\(query) reference"])) }
    }
}

final class SearchViewModel {
    @Published var query = ""
    @Published private(set) var results: [String] = []
    var status = ""
    private let service = SearchService()
    private var cancellables = Set<AnyCancellable>()

    init() {
        $query
            .debounce(for: .zero, scheduler: ImmediateScheduler.shared)
            .removeDuplicates()
            .filter { !$0.isEmpty }
            .flatMap { [service] query in service.search(query) }
            .sink { [weak self] in self?.results = $0 }
            .store(in: &cancellables)
        let statuses = $results.map { $0.isEmpty ? "no results" : "\($0.count) results" }
        if fixed {
            statuses.sink { [weak self] in self?.status = $0 }.store(in: &cancellables)
        } else {
            statuses.assign(to: \.status, on: self).store(in: &cancellables)  // planted: self-captured-observer
        }
    }

    deinit { print("SearchViewModel freed") }
}

func showAndDismissSearch() {
    let model = SearchViewModel()
    model.query = "swift"
    print("status shows \(model.status)")
}

showAndDismissSearch()
print(fixed ? "the view model was freed when dismissed" : "no 'freed' above: the view model leaked")
#else
import Foundation

// Built without the OpenCombineAdapter trait (`swift build --disable-default-traits`), there
// is no OpenCombine to run.
FileHandle.standardError.write(Data("CombineSearch: built without the OpenCombineAdapter trait; build with the default traits\n".utf8))
exit(2)
#endif
