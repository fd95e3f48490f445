// Search hints: every query starts a request, and a newer query cancels the older one
// (map + switchToLatest), so only the last query's hints arrive.
import Foundation
import SignalScope

let network = TestScheduler()

/// A request that answers after `latency` seconds, and says when it is cancelled.
func hints(for query: String, latency: TimeInterval) -> Signal<[String]> {
    Signal<[String]> { subscriber in
        print("request hints for \"\(query)\"")
        let reply = network.schedule(after: network.now.addingTimeInterval(latency)) {
            subscriber.sendNext(["\(query) tutorial", "\(query) book"])
            subscriber.sendCompleted()
        }
        return Disposable {
            reply?.dispose()
            print("request for \"\(query)\" ended")
        }
    }
}

final class SearchViewModel {
    let query = MutableProperty("")
    let hints: Signal<[String]>

    init() {
        hints = query.signal
            .filter { !$0.isEmpty }
            .map { SearchHints.hints(for: $0, latency: 0.5) }
            .switchToLatest()
    }
}

let viewModel = SearchViewModel()
let shown = viewModel.hints.subscribeNext { print("shown: \($0)") }
for text in ["s", "sw", "swift"] {
    viewModel.query.value = text
    network.advance(by: 0.2)
}
network.advance(by: 1)
shown.dispose()
