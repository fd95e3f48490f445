// An optimistic like button: the heart fills at once, the request runs in a Command, and
// when the request fails the command's errors roll the heart back.
import Foundation
import SignalScope

let network = TestScheduler()

struct ServerError: Error {}

final class PostViewModel {
    let liked = MutableProperty(false)
    let likeCount = MutableProperty(41)
    let lifetime: Lifetime
    private let token: Lifetime.Token
    let toggleLike: Command<Bool, Void>

    init(serverFails: Bool) {
        (lifetime, token) = Lifetime.make()
        toggleLike = Command { _ in
            Signal<Void> { subscriber in
                let reply = network.schedule(after: network.now.addingTimeInterval(0.3)) {
                    if serverFails {
                        subscriber.sendError(ServerError())
                    } else {
                        subscriber.sendCompleted()
                    }
                }
                return Disposable { reply?.dispose() }
            }
        }
        toggleLike.errors.takeUntil(lifetime.ended).subscribeNext { [weak self] _ in
            guard let self else { return }
            print("like failed: rolling back")
            self.setLiked(!self.liked.value)
        }
    }

    func tapHeart() {
        setLiked(!liked.value)
        toggleLike.execute(liked.value)
    }

    private func setLiked(_ value: Bool) {
        liked.value = value
        likeCount.value += value ? 1 : -1
        print("heart \(value ? "filled" : "empty"), \(likeCount.value) likes")
    }
}

for serverFails in [false, true] {
    let post = PostViewModel(serverFails: serverFails)
    post.tapHeart()
    network.advance(by: 1)
}
