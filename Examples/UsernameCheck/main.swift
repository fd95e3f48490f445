// A sign-up form checks whether the username is free as the user types: throttled, one
// request per pause, the answer or a failure mapped to a status, and "checking…" shown
// while a request runs.
import Foundation
import SignalScope

let clock = TestScheduler()

enum Availability: Equatable {
    case checking, available, taken, unknown
}

struct Offline: Error {}

func isTaken(_ name: String) -> Signal<Bool> {
    Signal<Bool> { subscriber in
        let reply = clock.schedule(after: clock.now.addingTimeInterval(0.3)) {
            if name == "offline" {
                subscriber.sendError(Offline())
            } else {
                subscriber.sendNext(["admin", "root"].contains(name))
                subscriber.sendCompleted()
            }
        }
        return Disposable { reply?.dispose() }
    }
}

final class SignUpViewModel {
    let username = MutableProperty("")
    let availability: Signal<Availability>

    init() {
        availability = username.signal
            .throttle(0.5, on: clock)
            .map { name in
                isTaken(name)
                    .map { $0 ? Availability.taken : .available }
                    .catch { _ in .just(.unknown) }
                    .startWith(.checking)
            }
            .switchToLatest()
    }
}

let form = SignUpViewModel()
let status = form.availability.subscribeNext { print("username status: \($0)") }
for name in ["a", "ad", "admin", "", "ada", "offline"] {
    form.username.value = name
    clock.advance(by: name.count < 3 ? 0.1 : 1)
}
status.dispose()
