// A profile request is a cold signal: each subscription runs its creation block, so two
// views subscribing send two requests. `--fixed` shares one run with replay().
import SignalScope

let fixed = CommandLine.arguments.contains("--fixed")

final class ProfileAPI {
    private(set) var requestsSent = 0

    func fetchProfile() -> Signal<String> {
        Signal<String> { subscriber in  // planted: repeated-cold-subscription
            self.requestsSent += 1
            print("GET /profile (request #\(self.requestsSent))")
            subscriber.sendNext("Ada Lovelace")
            subscriber.sendCompleted()
            return nil
        }
    }
}

final class NameLabel { var text = "" }
final class AvatarView { var caption = "" }

let api = ProfileAPI()
let profile = fixed ? api.fetchProfile().replay() : api.fetchProfile()
let label = NameLabel()
let avatar = AvatarView()
profile.subscribeNext { label.text = $0 }
profile.subscribeNext { avatar.caption = "Photo of \($0)" }
print("requests sent: \(api.requestsSent)")
