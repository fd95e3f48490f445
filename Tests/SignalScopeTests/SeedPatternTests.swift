import Foundation
import SignalScopeTools
import SignalScopeTesting
import Testing

/// The patterns of the RAC articles SignalScope grew from, ported line by line, each
/// asserting what a user of that screen would observe.
@Suite("Seed patterns", .timeLimit(.minutes(10)))
struct SeedPatternTests {
    enum Availability: Equatable { case checking, available, taken, unknown }
    enum APIError: Error { case tokenExpired, staleCache, offline }

    @Test("X1: countdown button: interval + take + startWith + map + takeUntil, bound to a command")
    func countdownButton() {
        let scheduler = TestScheduler()
        let (lifetime, token) = Lifetime.make()
        let title = MutableProperty("Send code")
        let sendCode = Command<Void, Int> {
            var remaining = 4
            return Signal.interval(1, on: scheduler)
                .take(3)
                .startWith(Date())
                .map { _ in
                    remaining -= 1
                    return remaining
                }
                .takeUntil(lifetime.ended)
        }
        title.bind(to: sendCode.executionSignals.switchToLatest().map { "\($0)s" })
        let enabled = TestObserver(sendCode.enabled, clock: scheduler)

        sendCode.execute()
        #expect(title.value == "3s")
        #expect(TestObserver(sendCode.execute()).error as? CommandError == .notEnabled, "tapping again does nothing")
        scheduler.advance(by: 3)
        #expect(title.value == "0s")
        #expect(enabled.recorded == [.next(0, true), .next(0, false), .next(3, true)], "re-enabled after the last tick")
        _ = token
    }

    @Test("X2: search hints: map + switchToLatest cancels the previous request; only the last result arrives")
    func searchHints() {
        let scheduler = TestScheduler()
        let text = Subject<String>()
        let requestsSent = Log<String>()
        let requestsCancelled = Log<String>()
        func hints(for query: String) -> Signal<[String]> {
            Signal { subscriber in
                requestsSent.append(query)
                var replied = false
                let reply = scheduler.schedule(afterDelay: 1) {
                    replied = true
                    subscriber.sendNext(["\(query)1", "\(query)2"])
                    subscriber.sendCompleted()
                }
                return Disposable {
                    if !replied { requestsCancelled.append(query) }
                    reply?.dispose()
                }
            }
        }
        let shown = TestObserver(text.map { hints(for: $0) }.switchToLatest(), clock: scheduler)
        text.sendNext("s")
        scheduler.advance(by: 0.3)
        text.sendNext("sw")
        scheduler.advance(by: 0.3)
        text.sendNext("swi")
        scheduler.run()
        #expect(requestsSent.items == ["s", "sw", "swi"])
        #expect(shown.recorded == [.next(1.6, ["swi1", "swi2"])])
        #expect(requestsCancelled.items == ["s", "sw"], "each new query cancelled the request before it")
    }

    @Test("X3: username check: throttle + map to a request + catch + startWith(.checking) + switchToLatest")
    func usernameCheck() {
        let scheduler = TestScheduler()
        let username = Subject<String>()
        let checked = Log<String>()
        func check(_ name: String) -> Signal<Availability> {
            Signal { subscriber in
                checked.append(name)
                return scheduler.schedule(afterDelay: 0.5) {
                    if name == "offline" {
                        subscriber.sendError(APIError.offline)
                    } else {
                        subscriber.sendNext(name == "taken" ? .taken : .available)
                        subscriber.sendCompleted()
                    }
                }
            }
        }
        let status = username
            .throttle(0.3, on: scheduler)
            .map { name in check(name).catch { _ in .just(.unknown) }.startWith(.checking) }
            .switchToLatest()
        let observer = TestObserver(status, clock: scheduler)
        username.sendNext("t")
        username.sendNext("ta")
        username.sendNext("taken")
        scheduler.advance(by: 1)
        username.sendNext("offline")
        scheduler.advance(by: 1)
        #expect(checked.items == ["taken", "offline"], "throttle sent one request per pause")
        #expect(observer.recorded == [
            .next(0.3, .checking), .next(0.8, .taken), .next(1.3, .checking), .next(1.8, .unknown),
        ])
    }

    @Test("X4: token refresh: catch fetches a new token, then concat runs the original request again")
    func tokenRefresh() {
        var token = "expired"
        var requestRuns = 0
        var refreshes = 0
        let request = Signal<String> { subscriber in
            requestRuns += 1
            if token == "expired" {
                subscriber.sendError(APIError.tokenExpired)
            } else {
                subscriber.sendNext("profile for \(token)")
                subscriber.sendCompleted()
            }
            return nil
        }
        let refreshToken = Signal<String> { subscriber in
            refreshes += 1
            token = "fresh"
            subscriber.sendNext(token)
            subscriber.sendCompleted()
            return nil
        }
        let profile = request.catch { error in
            guard case APIError.tokenExpired = error else { return .error(error) }
            return refreshToken.ignoreValues().map { _ in "" }.concat(request)
        }
        let observer = TestObserver(profile)
        #expect(observer.recordedEvents == [.next("profile for fresh"), .completed])
        #expect(requestRuns == 2)
        #expect(refreshes == 1)
    }

    @Test("X5: cache then network: subscribe(on:) background, catch a stale cache by fetching, doNext to cache, deliver(on:) main")
    func cacheThenNetwork() {
        let background = TestScheduler()
        let main = TestScheduler()
        var cache: [String: String] = [:]
        var fetches = 0
        func cached(_ key: String) -> Signal<String> {
            Signal { subscriber in
                if let value = cache[key] {
                    subscriber.sendNext(value)
                    subscriber.sendCompleted()
                } else {
                    subscriber.sendError(APIError.staleCache)
                }
                return nil
            }
        }
        let network = Signal<String> { subscriber in
            fetches += 1
            subscriber.sendNext("fresh news")
            subscriber.sendCompleted()
            return nil
        }
        func news() -> Signal<String> {
            cached("news")
                .subscribe(on: background)
                .catch { _ in network.doNext { cache["news"] = $0 } }
                .deliver(on: main)
        }
        let first = TestObserver(news())
        background.advance(by: 0)
        #expect(first.values.isEmpty, "nothing reaches the UI before the main scheduler runs")
        main.advance(by: 0)
        #expect(first.recordedEvents == [.next("fresh news"), .completed])
        let second = TestObserver(news())
        background.advance(by: 0)
        main.advance(by: 0)
        #expect(second.values == ["fresh news"])
        #expect(fetches == 1, "the second load is served from the cache")
    }

    @Test("X6: zip replaces a dispatch group: render once both requests are done")
    func zipRefresh() {
        let scheduler = TestScheduler()
        let banners = scheduler.createColdSignal([.next(2, ["banner"]), .completed(2)])
        let feed = scheduler.createColdSignal([.next(1, ["post1", "post2"]), .completed(1)])
        var rendered: [String] = []
        Signal.zip(banners.signal, feed.signal).subscribeNext { banners, posts in
            rendered = banners + posts
        }
        scheduler.advance(by: 1)
        #expect(rendered.isEmpty)
        scheduler.advance(by: 1)
        #expect(rendered == ["banner", "post1", "post2"])
    }

    @Test("X7: a view model merges its commands' errors into one subject and completes it in deinit")
    func mergedCommandErrors() {
        final class ProfileViewModel {
            let errors = Subject<any Error>()
            let load = Command<Void, String> { .error(APIError.offline) }
            let save = Command<String, Void> { _ in .error(APIError.tokenExpired) }
            init() {
                Signal.merge([load.errors, save.errors]).subscribe(errors)
            }
            deinit { errors.sendCompleted() }
        }
        var viewModel: ProfileViewModel? = ProfileViewModel()
        let alerts = TestObserver(viewModel!.errors)
        viewModel!.load.execute()
        viewModel!.save.execute("name")
        #expect(alerts.values.map { "\($0)" } == ["offline", "tokenExpired"])
        viewModel = nil
        #expect(alerts.isCompleted, "completing the subject in deinit releases the screen's subscribers")
    }

    @Test("X8: a delegate replaced by a signal fed by the dismiss method, with then/map to pass data back")
    func delegateSignal() {
        final class PickerController {
            private let dismissed = Subject<String>()
            /// What `rac_signalForSelector(dismiss:)` would give: a value per call.
            var didDismiss: Signal<String> { dismissed }
            func dismiss(selecting choice: String) {
                dismissed.sendNext(choice)
                dismissed.sendCompleted()
            }
        }
        let picker = PickerController()
        var status = ""
        var selection = ""
        picker.didDismiss.map { "picked \($0)" }.subscribeNext { selection = $0 }
        picker.didDismiss.then { Signal.just("picker closed") }.subscribeNext { status = $0 }
        picker.dismiss(selecting: "blue")
        #expect(selection == "picked blue")
        #expect(status == "picker closed")
    }
}
