import Foundation
import Testing

extension Trait where Self == ConditionTrait {
    /// A test that proves a bound at scale (a million records, twenty thousand nodes, two
    /// thousand watched objects, floods of connections): together they take minutes of both
    /// processors, so `make test` leaves them to `make ci` and `make test-scale`, which set
    /// `SIGNALSCOPE_SCALE_TESTS=1`. What each guards is still checked on every change CI sees.
    static var atScale: Self {
        .enabled(if: ProcessInfo.processInfo.environment["SIGNALSCOPE_SCALE_TESTS"] == "1", "at scale: make test-scale and make ci run it")
    }
}
