// A profile request is a cold signal: each subscription runs its creation block, so two
// views subscribing at once send two requests, both in flight together. `--fixed` shares
// one run with replay().
import Dispatch
import SignalScope

let fixed = CommandLine.arguments.contains("--fixed")
let network = QueueScheduler()

final class ProfileAPI {
    private(set) var requestsSent = 0

    func fetchProfile() -> Signal<String> {
        Signal<String> { subscriber in  // planted: repeated-cold-subscription
            self.requestsSent += 1
            print("GET /profile (request #\(self.requestsSent))")
            return network.schedule(afterDelay: 0.05) {
                subscriber.sendNext("Ada Lovelace")
                subscriber.sendCompleted()
            }
        }
    }
}

final class NameLabel { var text = "" }
final class AvatarView { var caption = "" }

let api = ProfileAPI()
let profile = fixed ? api.fetchProfile().replay() : api.fetchProfile()
let label = NameLabel()
let avatar = AvatarView()
let responses = DispatchSemaphore(value: 0)
profile.subscribe(next: { label.text = $0 }, completed: { responses.signal() })
profile.subscribe(next: { avatar.caption = "Photo of \($0)" }, completed: { responses.signal() })
responses.wait()
responses.wait()
print("requests sent: \(api.requestsSent)")
