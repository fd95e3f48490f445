// A clock label subscribes to an infinite timer and drops the disposable: nothing can ever
// stop it, and it keeps ticking after the screen is gone. `--fixed` keeps the disposable
// and disposes it when the screen is dismissed.
import SignalScope

let fixed = CommandLine.arguments.contains("--fixed")

/// The scheduler outlives the screen, as the main queue does.
let mainQueue = TestScheduler()

final class ClockLabel {
    var text = ""
}

final class ClockScreen {
    private var ticking: Disposable?

    func show(on label: ClockLabel) {
        let ticks = Signal.interval(1, on: mainQueue).scan(0) { count, _ in count + 1 }
        if fixed {
            ticking = ticks.subscribeNext { [weak label] in label?.text = "\($0)s" }
        } else {
            ticks.subscribeNext { [weak label] in label?.text = "\($0)s" }  // planted: leaked-subscription
        }
    }

    func dismiss() { ticking?.dispose() }
}

func visitClockScreen() {
    let label = ClockLabel()
    let screen = ClockScreen()
    screen.show(on: label)
    mainQueue.advance(by: 3)
    print("label shows \(label.text)")
    screen.dismiss()
}

visitClockScreen()
print(fixed ? "the timer stopped with the screen" : "the timer is still running with nobody to stop it")
