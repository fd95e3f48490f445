// A profile editor's view model from a Combine app, ported line by line (the original is in
// docs/porting.md): @Published properties become MutableProperty, PassthroughSubject
// `Signal.pipe()`, `removeDuplicates(by:)` `distinctUntilChanged(by:)`, `sink` `subscribe`,
// `Set<AnyCancellable>` a CompoundDisposable. Combine's `assign(to: \.canSave, on: self)`
// keeps `self` alive forever; SignalScope's `assign(to:on:)` holds it weakly, so the same
// line is safe. `--leaky` captures `self` strongly in one closure, as the port would if
// `[weak self]` were dropped.
import Foundation
import SignalScope

let leaky = CommandLine.arguments.contains("--leaky")
let network = TestScheduler()

struct Profile: Equatable {
    var name: String
    var bio: String
}
struct SaveError: Error {}

/// The app's API: saving answers after a moment.
struct ProfileAPI {
    func save(_ profile: Profile) -> Signal<Profile> {
        Signal<Profile> { subscriber in
            let reply = network.schedule(after: network.now.addingTimeInterval(0.3)) {
                if profile.name.isEmpty {
                    subscriber.sendError(SaveError())
                } else {
                    subscriber.sendNext(profile)
                    subscriber.sendCompleted()
                }
            }
            return Disposable { reply?.dispose() }
        }
    }
}

final class ProfileEditorViewModel {
    // Inputs (@Published in the original).
    let name = MutableProperty("")
    let bio = MutableProperty("")
    let (saveTaps, tapSave) = Signal<Void>.pipe()

    // Outputs.
    var canSave = false
    private(set) var saved: Profile?
    private(set) var failures = 0
    private let cancellables = CompoundDisposable()

    init(api: ProfileAPI, original: Profile) {
        let edited = Signal.combineLatest(name.signal, bio.signal)
            .map { Profile(name: $0, bio: $1) }
            .distinctUntilChanged { $0 == $1 }
        cancellables.add(edited.map { $0 != original && !$0.name.isEmpty }.assign(to: \.canSave, on: self))
        let attempts = edited.sample(on: saveTaps)
            .map { api.save($0).materialize() }
            .flatten()
            .share()
        cancellables.add(attempts.errors().subscribeNext { [weak self] _ in self?.failures += 1 })
        if leaky {
            cancellables.add(attempts.values().subscribeNext { profile in self.saved = profile })  // planted: self-captured-observer
        } else {
            cancellables.add(attempts.values().subscribeNext { [weak self] profile in self?.saved = profile })
        }
    }

    deinit {
        cancellables.dispose()
        print("ProfileEditorViewModel freed")
    }
}

func edit() {
    let viewModel = ProfileEditorViewModel(api: ProfileAPI(), original: Profile(name: "Ada", bio: ""))
    viewModel.name.value = "Ada Lovelace"
    viewModel.bio.value = "Analyst"
    print("can save: \(viewModel.canSave)")
    viewModel.tapSave.sendNext(())
    network.advance(by: 1)
    viewModel.name.value = ""
    viewModel.tapSave.sendNext(())
    network.advance(by: 1)
    print("saved: \(String(describing: viewModel.saved)), failures: \(viewModel.failures)")
}

edit()
