// A small program with two leaks planted on purpose, each marked `planted:` with its rule,
// for `signalscope check -- PlantedLeaks` to find (the CLI's end-to-end tests check that it
// finds exactly these). Run with the argument `clean` it fixes both and leaks nothing; a
// second argument is the exit status to end with (to test how `check` passes it through).
import Foundation
import SignalScope

let clean = CommandLine.arguments.dropFirst().first == "clean"

/// The RACObserve trap: the observer captures `self`, and `self` owns the property.
final class ProfileScreen {
    let name = MutableProperty("")
    var greeting = ""

    init(weakly: Bool) {
        if weakly {
            name.signal.map { "Hello, \($0)" }.subscribeNext { [weak self] text in self?.greeting = text }
        } else {
            name.signal.map { "Hello, \($0)" }.subscribeNext { text in self.greeting = text }  // planted: self-captured-observer
        }
    }
}

/// A bus of session events that lives as long as the program and is never completed.
final class SessionEvents {
    let logins = Subject<String>()  // planted: never-completed-subject
}

final class Badge {
    var text = ""
}

func run() {
    let profile = ProfileScreen(weakly: clean)
    profile.name.value = "Ada"

    let events = SessionEvents()
    let badge = Badge()
    events.logins.subscribeNext { user in badge.text = user }
    events.logins.sendNext("ada")
    if clean { events.logins.sendCompleted() }
}

run()
print(clean ? "PlantedLeaks: clean run" : "PlantedLeaks: two leaks planted")
exit(CommandLine.arguments.dropFirst(2).first.flatMap { Int32($0) } ?? 0)
