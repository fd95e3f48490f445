// An app at scale, for drawing and reporting at the size real apps reach: thirty screens,
// each with a searchable, throttled list view model and its rows' subscriptions (about
// 5,000 subscriptions and 100,000 events in all), on a test scheduler. Two screens leak as
// apps do: one observes itself strongly, one keeps listening to a subject nobody completes.
import Foundation
import SignalScope

let scheduler = TestScheduler()
/// The app-wide stream of account changes, never completed: a screen that subscribes to it
/// and keeps itself in the observer lives forever.
let accountChanges = Subject<String>().named("accountChanges")

final class ListViewModel {
    let query = MutableProperty("")
    let items = Subject<[Int]>()
    let visibleRows: Signal<[Int]>

    init(screen: Int) {
        let source = items
        visibleRows = query.signal
            .throttle(0.3, on: scheduler)
            .map { query in query.count }
            .flattenMap { length in source.map { $0.filter { $0 % (length + 1) == 0 } }.take(1) }
    }
}

final class Screen {
    let number: Int
    let viewModel: ListViewModel
    var rows: [Disposable] = []
    var shown: Disposable?
    var titleObservation: Disposable?
    var title = ""

    init(number: Int) {
        self.number = number
        viewModel = ListViewModel(screen: number)
    }

    func appear(rowCount: Int) {
        shown = viewModel.visibleRows.subscribeNext { _ in }
        for row in 0..<rowCount {
            rows.append(viewModel.items.map { $0.count + row }.filter { $0 > 0 }.subscribeNext { _ in })
        }
        if number == 7 {
            // The leak: self in the observer of its own view model's property, which
            // disappearing never ends.
            titleObservation = viewModel.query.signal.subscribeNext { self.title = $0 }
        }
        if number == 19 {
            _ = accountChanges.subscribeNext { self.title = $0 }
        }
    }

    func disappear() {
        rows.forEach { $0.dispose() }
        rows = []
        shown?.dispose()
    }
}

/// Rows per screen: 55 makes about 100,000 events; `SCREENS_ROWS` makes bigger traces for
/// measuring exports (docs/performance.md).
let rowCount = ProcessInfo.processInfo.environment["SCREENS_ROWS"].flatMap(Int.init) ?? 55
var screens: [Screen] = []
for number in 0..<30 {
    let screen = Screen(number: number)
    screen.appear(rowCount: rowCount)
    for step in 0..<10 {
        screen.viewModel.query.value = String(repeating: "a", count: step % 4)
        screen.viewModel.items.sendNext(Array(0..<(step + 3)))
        scheduler.advance(by: 0.1)
        screen.viewModel.items.sendNext(Array(0..<(step + 4)))
        scheduler.advance(by: 0.4)
    }
    accountChanges.sendNext("account \(number)")
    screen.disappear()
    if number == 7 || number == 19 { screens.append(screen) }
}
screens = []
print("ScreensAtScale: 30 screens shown and dismissed")
