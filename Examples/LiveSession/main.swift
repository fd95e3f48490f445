// A session that runs for a few seconds: it shows a profile screen, dismisses it, and keeps
// sending updates. The screen's observation of the session's updates captures the screen and
// is never ended, so the dismissed screen stays alive; the app says it should be gone within
// half a second of its dismissal (Tracer.expectDeallocation), so a recording proves it while
// the session still runs. `--fixed` ends the observation with the screen's lifetime; `--updates
// N` sends N updates over the same three seconds (30 by default), `--screens N` dismisses N more
// watched screens (the page and watched objects at scale); `--seconds S` runs S seconds, not 3.
import Foundation
import SignalScope
import SignalScopeTracing

let fixed = CommandLine.arguments.contains("--fixed")
func option(_ name: String) -> Int? {
    CommandLine.arguments.firstIndex(of: name).flatMap { CommandLine.arguments.dropFirst($0 + 1).first.flatMap { Int($0) } }
}
let updates = option("--updates") ?? 30, ticks = 10 * max(1, option("--seconds") ?? 3)

final class Session {
    let updates = Subject<String>()
}

final class ProfileScreen {
    let lifetime: Lifetime
    private let token: Lifetime.Token
    var status = ""

    init(session: Session) {
        (lifetime, token) = Lifetime.make()
        if fixed {
            session.updates.takeUntil(lifetime.ended).subscribeNext { [weak self] update in self?.status = update }
        } else {
            session.updates.map { $0.uppercased() }.subscribeNext { update in self.status = update }  // planted: leaked-subscription
        }
    }

    deinit { print("ProfileScreen freed") }
}

let session = Session()
var screen: ProfileScreen? = ProfileScreen(session: session)
session.updates.sendNext("signed in")
Tracer.expectDeallocation(of: screen!, within: .milliseconds(500), because: "ProfileScreen dismissed")
screen = nil
// `--screens N`: N more screens shown and dismissed a tenth of a second in, each watched with
// a deadline of a millisecond and kept like the first: watched objects at scale.
let moreScreens = option("--screens") ?? 0
for tick in 0..<ticks {
    if tick == 1 {
        for _ in 0..<moreScreens {
            let another = ProfileScreen(session: session)
            Tracer.expectDeallocation(of: another, within: .milliseconds(1), because: "ProfileScreen dismissed")
        }
    }
    for update in (updates * tick / ticks)..<(updates * (tick + 1) / ticks) { session.updates.sendNext("update \(update + 1)") }
    Thread.sleep(forTimeInterval: 0.1)
}
// The session lives as long as the app: the dismissed screen is still held at exit.
print("session ended")
