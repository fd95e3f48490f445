// The "send verification code" button: tapping it starts a 5-second countdown shown on
// the button, which stays disabled until the countdown ends. The countdown ends with the
// screen too (takeUntil(lifetime.ended)), so leaving early leaks nothing.
import Foundation
import SignalScope

/// Stands in for the main queue; the example advances it by hand instead of waiting.
let clock = TestScheduler()

final class VerificationScreen {
    let buttonTitle = MutableProperty("Send code")
    let lifetime: Lifetime
    private let token: Lifetime.Token
    let sendCode: Command<Void, Int>

    init(seconds: Int) {
        (lifetime, token) = Lifetime.make()
        let ended = lifetime.ended
        sendCode = Command { _ in
            Signal.interval(1, on: clock)
                .take(seconds)
                .scan(seconds) { remaining, _ in remaining - 1 }
                .startWith(seconds)
                .takeUntil(ended)
        }
        sendCode.executionSignals.switchToLatest()
            .map { $0 == 0 ? "Send code" : "Resend in \($0)s" }
            .takeUntil(ended)
            .subscribeNext { [weak self] title in self?.buttonTitle.value = title }
        buttonTitle.signal.takeUntil(ended).subscribeNext { print("button: \($0)") }
        sendCode.enabled.takeUntil(ended).subscribeNext { print("button enabled: \($0)") }
    }
}

func visitScreen() {
    let screen = VerificationScreen(seconds: 5)
    screen.sendCode.execute()
    clock.advance(by: 2)
    screen.sendCode.execute()  // ignored: the command is disabled while counting down
    clock.advance(by: 4)
}

visitScreen()
