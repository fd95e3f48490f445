import Foundation
import SignalScopeTools
import Testing

/// Each bad argument must stop the program with a message naming the problem. Exit tests
/// run the body in a child process and read what it printed.
@Suite("Contract checks", .timeLimit(.minutes(10)))
struct ContractCheckTests {
    private func expectMessage(_ result: ExitTest.Result?, _ expected: String) {
        let printed = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(printed.contains(expected), "stderr was: \(printed)")
    }

    @Test("V1: a negative replay capacity is rejected")
    func negativeCapacity() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = ReplaySubject<Int>(capacity: -1)
        }
        expectMessage(result, "ReplaySubject capacity must not be negative (got -1)")
    }

    @Test("V1: a negative delay is rejected")
    func negativeDelay() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            TestScheduler().schedule(afterDelay: -2) {}
        }
        expectMessage(result, "A scheduling delay must be a non-negative number of seconds (got -2.0)")
    }

    @Test("V1: advancing a test scheduler by a negative interval is rejected")
    func negativeAdvance() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            TestScheduler().advance(by: -1)
        }
        expectMessage(result, "TestScheduler.advance(by:) interval must be a non-negative number of seconds (got -1.0)")
    }

    @Test("V1: a repeating interval that is not positive is rejected")
    func zeroInterval() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            QueueScheduler(label: "v1").schedule(after: Date(), interval: 0) {}
        }
        expectMessage(result, "A repeating interval must be a positive, finite number of seconds (got 0.0)")
    }

    @Test("V1: the immediate scheduler refuses repeating actions")
    func immediateRepeating() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            ImmediateScheduler().schedule(after: Date(), interval: 1) {}
        }
        expectMessage(result, "ImmediateScheduler cannot run repeating actions")
    }

    @Test("V1: TestScheduler.run() with a repeating action that is never disposed stops with a message")
    func runWithEndlessTimer() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let scheduler = TestScheduler()
            scheduler.schedule(after: scheduler.now, interval: 1) {}
            scheduler.run()
        }
        expectMessage(result, "a repeating action is probably never disposed")
    }

    @Test("V1: a negative operator count is rejected")
    func negativeTake() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Signal.just(1).take(-3)
        }
        expectMessage(result, "take(_:) count must not be negative (got -3)")
    }

    @Test("V1: an interval that is not positive is rejected")
    func zeroIntervalSignal() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Signal.interval(0, on: TestScheduler())
        }
        expectMessage(result, "interval(_:on:) interval must be a positive, finite number of seconds (got 0.0)")
    }

    @Test("V1: a negative throttle interval is rejected")
    func negativeThrottle() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Signal.just(1).throttle(-0.5, on: TestScheduler())
        }
        expectMessage(result, "throttle(_:on:) interval must be a non-negative number of seconds (got -0.5)")
    }
}
