// A sign-up form's view model from a ReactiveSwift app, ported line by line (the original is
// in docs/porting.md): MutableProperty and Property stay, Action becomes Command,
// `property.producer` becomes `property.signal`, `Signal.pipe()` stays, `<~` becomes
// `bind(to:)`, `skipRepeats` becomes `distinctUntilChanged`. `--leaky` captures `self`
// strongly in one closure, as the port would if `[weak self]` were dropped.
import Foundation
import SignalScope

let leaky = CommandLine.arguments.contains("--leaky")
let network = TestScheduler()

struct Account { let email: String }
struct SignUpError: Error, CustomStringConvertible {
    let description: String
}

/// The app's API: a request that answers after a moment.
struct AccountAPI {
    func signUp(email: String, password: String) -> Signal<Account> {
        Signal<Account> { subscriber in
            let reply = network.schedule(after: network.now.addingTimeInterval(0.4)) {
                if email.hasSuffix("@taken.example") {
                    subscriber.sendError(SignUpError(description: "\(email) is taken"))
                } else {
                    subscriber.sendNext(Account(email: email))
                    subscriber.sendCompleted()
                }
            }
            return Disposable { reply?.dispose() }
        }
    }
}

final class SignUpViewModel {
    // Inputs.
    let email = MutableProperty("")
    let password = MutableProperty("")
    let (termsAccepted, acceptTerms) = Signal<Bool>.pipe()

    // Outputs.
    let isValid: Property<Bool>
    let status = MutableProperty("Fill in the form")
    let signUp: Command<Void, Account>
    private(set) var errorMessage = ""

    init(api: AccountAPI) {
        isValid = Property(
            initial: false,
            then: Signal.combineLatest(email.signal, password.signal, termsAccepted.startWith(false))
                .map { email, password, accepted in email.contains("@") && password.count >= 8 && accepted }
                .distinctUntilChanged())
        signUp = Command(enabled: isValid.signal) { [email, password] _ in
            api.signUp(email: email.value, password: password.value)
        }
        status.bind(to: signUp.executionSignals.flatten().map { "Welcome, \($0.email)" })
        if leaky {
            signUp.errors.subscribeNext { error in self.errorMessage = "\(error)" }  // planted: self-captured-observer
        } else {
            signUp.errors.subscribeNext { [weak self] error in self?.errorMessage = "\(error)" }
        }
    }

    deinit {
        print("SignUpViewModel freed")
    }
}

/// The screen: what the view model's outputs are bound to.
final class SignUpScreen {
    var buttonEnabled = false
    var statusText = ""
    let viewModel: SignUpViewModel

    init(viewModel: SignUpViewModel) {
        self.viewModel = viewModel
        viewModel.isValid.signal.assign(to: \.buttonEnabled, on: self)
        viewModel.status.signal.assign(to: \.statusText, on: self)
    }
}

func signUp(as email: String) {
    let screen = SignUpScreen(viewModel: SignUpViewModel(api: AccountAPI()))
    let viewModel = screen.viewModel
    viewModel.email.value = email
    viewModel.password.value = "correct horse"
    viewModel.acceptTerms.sendNext(true)
    print("button enabled: \(screen.buttonEnabled)")
    viewModel.signUp.execute()
    network.advance(by: 1)
    print("status: \(screen.statusText)\(viewModel.errorMessage.isEmpty ? "" : ", error: \(viewModel.errorMessage)")")
}

signUp(as: "ada@example.com")
signUp(as: "grace@taken.example")
