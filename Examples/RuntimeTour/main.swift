// A tour of the SignalScope runtime, told through the scenes and traps RAC users meet:
// cold signals that repeat their work, subjects that are never completed, bindings,
// cancelled searches and a countdown command. `make demo` runs it; later, the traced demo
// will draw the same scenes.
import Foundation
import SignalScope

final class LoginScreen {
    let title = MutableProperty("")
    var subscription: Disposable?
    deinit { print("   LoginScreen deinit") }
}

func section(_ title: String) {
    print("\n== \(title)")
}

// 1. A cold signal runs its creation block once per subscription.
section("Cold signal subscribed twice")
var requestsSent = 0
let fetchUser = Signal<String> { subscriber in
    requestsSent += 1
    print("   sending request #\(requestsSent)")
    subscriber.sendNext("user-42")
    subscriber.sendCompleted()
    return Disposable { print("   request #\(requestsSent) cleaned up") }
}
fetchUser.subscribeNext { print("   first subscriber got \($0)") }
fetchUser.subscribeNext { print("   second subscriber got \($0)") }
print("   requests sent: \(requestsSent) (a ReplaySubject or a shared subscription would send one)")

// 2. A subject keeps its subscribers until it completes.
section("Subject that is never completed")
let errors = Subject<String>()
weak var leakedScreen: LoginScreen?
do {
    let screen = LoginScreen()
    leakedScreen = screen
    screen.subscription = errors.subscribeNext { message in screen.title.value = message }
}
errors.sendNext("wrong password")
print("   screen alive after its scope ended: \(leakedScreen != nil), title = \(leakedScreen?.title.value ?? "-")")
print("   sending completed to the subject...")
errors.sendCompleted()
print("   screen alive now: \(leakedScreen != nil)")

// 3. A property and a binding: RAC(self.label, text) = signal.
section("Property binding")
let query = Subject<String>()
let label = MutableProperty("(empty)")
label.signal.subscribeNext { print("   label shows: \($0)") }
label.bind(to: query)
query.sendNext("swift")
query.sendNext("signals")

// 4. Search hints: each keystroke starts a request; switchToLatest cancels the one before.
section("Search hints with switchToLatest (virtual time)")
let clock = TestScheduler()
let start = clock.now
func elapsed() -> String { String(format: "t=%.1fs", clock.now.timeIntervalSince(start)) }
func hints(for query: String) -> Signal<String> {
    Signal { subscriber in
        print("   \(elapsed()) request for \"\(query)\" sent")
        var answered = false
        let reply = clock.schedule(afterDelay: 1) {
            answered = true
            subscriber.sendNext("hints for \"\(query)\"")
            subscriber.sendCompleted()
        }
        return Disposable {
            if !answered { print("   \(elapsed()) request for \"\(query)\" cancelled") }
            reply?.dispose()
        }
    }
}
let searchText = Subject<String>()
searchText.map { hints(for: $0) }.switchToLatest().subscribeNext { print("   \(elapsed()) shown: \($0)") }
for query in ["s", "sw", "swift"] {
    searchText.sendNext(query)
    clock.advance(by: 0.4)
}
clock.run()

// 5. A countdown button: a Command that disables itself while its countdown runs.
section("Countdown command (virtual time)")
let sendCode = Command<Void, Int> {
    Signal.interval(1, on: clock).take(3).scan(3) { remaining, _ in remaining - 1 }.startWith(3)
}
sendCode.enabled.subscribeNext { print("   \(elapsed()) button enabled: \($0)") }
sendCode.executionSignals.switchToLatest().subscribeNext { print("   \(elapsed()) button title: \($0)s") }
sendCode.execute()
sendCode.execute().subscribeError { print("   \(elapsed()) second tap refused: \($0)") }
clock.advance(by: 3)

// 6. Lifetimes end subscriptions when their owner goes away.
section("Lifetime")
var token: Lifetime.Token?
let lifetime: Lifetime
(lifetime, token) = Lifetime.make()
lifetime.ended.subscribeCompleted { print("   the owner's lifetime ended") }
token = nil
print("   hasEnded = \(lifetime.hasEnded)")
