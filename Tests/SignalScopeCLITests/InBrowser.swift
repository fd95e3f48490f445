import Foundation
import Testing

extension Trait where Self == ConditionTrait {
    /// A test that drives Chromium: a browser start costs seconds of both processors, so
    /// `make test` leaves these to `make ci` and `make test-browser`, which set
    /// `SIGNALSCOPE_BROWSER_TESTS=1`; a plain `swift test` runs them too.
    static var inBrowser: Self {
        .enabled(if: ProcessInfo.processInfo.environment["SIGNALSCOPE_BROWSER_TESTS"] != "0", "in a browser: make test-browser and make ci run it")
    }
}
