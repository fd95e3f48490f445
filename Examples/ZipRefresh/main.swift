// Pull to refresh loads the profile and the feed in parallel and updates the screen once
// both have answered: `Signal.zip` instead of a dispatch group.
import Foundation
import SignalScope

let network = TestScheduler()

func load<Value>(_ name: String, _ value: Value, after latency: TimeInterval) -> Signal<Value> {
    Signal<Value> { subscriber in
        print("GET /\(name)")
        let reply = network.schedule(after: network.now.addingTimeInterval(latency)) {
            print("/\(name) answered")
            subscriber.sendNext(value)
            subscriber.sendCompleted()
        }
        return Disposable { reply?.dispose() }
    }
}

final class HomeScreen {
    var header = ""
    var rows: [String] = []

    func refresh() -> Signal<Void> {
        Signal.zip(load("profile", "Ada", after: 0.4), load("feed", ["post 1", "post 2"], after: 0.7))
            .doNext { [weak self] profile, feed in
                self?.header = "Hello, \(profile)"
                self?.rows = feed
            }
            .map { _ in () }
    }
}

let home = HomeScreen()
home.refresh().subscribeCompleted { print("refreshed once: \(home.header), \(home.rows.count) rows") }
network.advance(by: 1)
