import Foundation
import Testing

extension Trait where Self == ConditionTrait {
    /// A test that drives Chromium: a browser start costs seconds of both processors, so
    /// `make test` sets `SIGNALSCOPE_BROWSER_TESTS=0` and leaves these to `make ci` and
    /// `make test-browser`; any other run (a plain `swift test`) runs them.
    static var inBrowser: Self {
        .enabled(if: ProcessInfo.processInfo.environment["SIGNALSCOPE_BROWSER_TESTS"] != "0", "in a browser: make test-browser and make ci run it")
    }
}
