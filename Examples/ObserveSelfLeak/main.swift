// RACObserve(self, ...) with `self` used inside the block: the screen owns the property, the
// property's subscription owns the observer, and the observer owns the screen. The screen
// never deallocates. `--fixed` captures `[weak self]` and also ends the observation with
// the screen's lifetime, as the RAC articles recommend (@weakify/@strongify, takeUntil).
import SignalScope

let fixed = CommandLine.arguments.contains("--fixed")

final class ProfileScreen {
    let nickname = MutableProperty("")
    let lifetime: Lifetime
    private let token: Lifetime.Token
    var header = ""

    init() {
        (lifetime, token) = Lifetime.make()
        if fixed {
            nickname.signal.takeUntil(lifetime.ended).subscribeNext { [weak self] name in self?.header = "@\(name)" }
        } else {
            nickname.signal.subscribeNext { name in self.header = "@\(name)" }  // planted: self-captured-observer
        }
    }

    deinit { print("ProfileScreen deinit") }
}

func showAndDismissProfile() {
    let screen = ProfileScreen()
    screen.nickname.value = "ada"
    print("header shows \(screen.header)")
}

showAndDismissProfile()
print(fixed ? "the screen was freed when dismissed" : "no deinit above: the screen leaked")
