// A view model with several commands merges all their errors into one subject the view
// shows, and completes that subject in deinit, so nothing outlives the view model.
import Foundation
import SignalScope

struct Failure: Error, CustomStringConvertible {
    let description: String
}

final class SettingsViewModel {
    let errors = Subject<String>()
    let save: Command<Void, Void>
    let logOut: Command<Void, Void>
    private var forwarding: Disposable?

    init() {
        save = Command { _ in .error(Failure(description: "disk full")) }
        logOut = Command { _ in .error(Failure(description: "offline")) }
        let errors = errors
        forwarding = Signal.merge([save.errors, logOut.errors])
            .subscribeNext { errors.sendNext("\($0)") }
    }

    deinit {
        forwarding?.dispose()
        errors.sendCompleted()
    }
}

func showSettings() {
    let viewModel = SettingsViewModel()
    viewModel.errors.subscribe(
        next: { print("alert: \($0)") },
        completed: { print("errors completed with the view model") })
    viewModel.save.execute()
    viewModel.logOut.execute()
}

showSettings()
