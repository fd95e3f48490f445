// A tour of the SignalScope runtime, told through the traps RAC users meet:
// cold signals that repeat their work, subjects that are never completed, and self-capturing
// observers. `make demo` runs it; later, the traced demo will draw the same scenes.
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

// 4. Virtual time: a countdown on a TestScheduler, with no real waiting.
section("Countdown on virtual time")
let clock = TestScheduler()
let start = clock.now
var remaining = 3
let countdown = clock.schedule(after: start.addingTimeInterval(1), interval: 1) {
    print("   t=\(Int(clock.now.timeIntervalSince(start)))s remaining \(remaining)")
    remaining -= 1
}
clock.advance(by: 3)
countdown?.dispose()
clock.run()
print("   finished at virtual t=\(Int(clock.now.timeIntervalSince(start)))s")

// 5. Lifetimes end subscriptions when their owner goes away.
section("Lifetime")
var token: Lifetime.Token?
let lifetime: Lifetime
(lifetime, token) = Lifetime.make()
lifetime.ended.subscribeCompleted { print("   the owner's lifetime ended") }
token = nil
print("   hasEnded = \(lifetime.hasEnded)")
