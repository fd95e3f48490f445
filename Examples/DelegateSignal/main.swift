// A presented picker reports back through a signal instead of a delegate: its `picked`
// signal is fed by the method that dismisses it (the rac_signalForSelector pattern), and
// the presenter maps it to what it needs, then carries on once the picker is gone (then).
import SignalScope

final class ColorPicker {
    private let dismissed = Subject<String>()

    /// Sends the chosen colour, then completes when the picker is dismissed.
    var picked: Signal<String> { dismissed }

    /// Called by the picker's Done button.
    func done(choosing color: String) {
        dismissed.sendNext(color)
        dismissed.sendCompleted()
    }

    deinit { print("ColorPicker deinit") }
}

final class ThemeScreen {
    var accent = "blue"

    func changeAccent(userChooses color: String) {
        let picker = ColorPicker()
        print("present the picker")
        picker.picked
            .map { $0.uppercased() }
            .doNext { [weak self] in self?.accent = $0 }
            .then { Signal.just("accent is now \(self.accent)") }
            .subscribeNext { print($0) }
        picker.done(choosing: color)
    }
}

let screen = ThemeScreen()
screen.changeAccent(userChooses: "green")
