// A view model exposes its errors as a subject and never completes it: the subject, its
// subscriptions and everything their observers capture live as long as the program.
// `--fixed` completes the subject in the view model's deinit, the articles' rule for
// subjects a view model owns.
import SignalScope

let fixed = CommandLine.arguments.contains("--fixed")

final class LoginViewModel {
    let errors = Subject<String>()  // planted: never-completed-subject

    func logIn(password: String) {
        if password.count < 8 { errors.sendNext("password too short") }
    }

    deinit {
        if fixed { errors.sendCompleted() }
    }
}

final class ErrorBanner {
    var text = ""
}

func showLogin() {
    let viewModel = LoginViewModel()
    let banner = ErrorBanner()
    viewModel.errors.subscribeNext { message in
        banner.text = message
        print("banner: \(message)")
    }
    viewModel.logIn(password: "1234")
}

showLogin()
print(fixed ? "errors completed in deinit: banner and subscription freed" : "errors never completed: banner and subscription leaked")
