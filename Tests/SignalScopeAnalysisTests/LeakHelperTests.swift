import SignalScopeTools
import SignalScopeTesting
import Testing
import XCTest

private final class ProfileViewModel {
    let name = MutableProperty("")
    var greeting = ""

    func bindCapturingSelf() { name.signal.subscribeNext { self.greeting = "hello \($0)" } }
    func bindWeakly() { name.signal.subscribeNext { [weak self] in self?.greeting = "hello \($0)" } }
}

@Suite("expectNoSignalLeaks")
struct LeakHelperTests {
    @Test("A leaky closure fails the check, at the leak's line")
    func leakyFails() {
        withKnownIssue {
            expectNoSignalLeaks { ProfileViewModel().bindCapturingSelf() }
        } matching: { issue in
            issue.sourceLocation?.line == 10 && "\(issue)".contains("self-captured-observer")
        }
    }

    @Test("A clean closure passes")
    func cleanPasses() {
        expectNoSignalLeaks {
            let model = ProfileViewModel()
            model.bindWeakly()
            model.name.value = "Ada"
        }
    }

    @Test("Allowed rules and objects meant to outlive the scope pass")
    func allowances() {
        expectNoSignalLeaks(allowing: LeakAllowance(rules: [.selfCapturedObserver])) {
            ProfileViewModel().bindCapturingSelf()
        }
        expectNoSignalLeaks(allowing: LeakAllowance(outliving: ["ProfileViewModel"])) {
            ProfileViewModel().bindCapturingSelf()
        }
    }

    @Test("Another test's leaks, on another thread, do not fail this check")
    func otherThreadsAreIgnored() async {
        let other = Thread { ProfileViewModel().bindCapturingSelf() }
        expectNoSignalLeaks {
            other.start()
            let model = ProfileViewModel()
            model.bindWeakly()
            while !other.isFinished { Thread.sleep(forTimeInterval: 0.001) }
        }
    }
}

final class LeakHelperXCTests: XCTestCase {
    func testCleanClosurePasses() {
        XCTAssertNoSignalLeaks {
            let model = ProfileViewModel()
            model.bindWeakly()
        }
    }

    func testAllowedLeakPasses() {
        XCTAssertNoSignalLeaks(allowing: LeakAllowance(rules: [.selfCapturedObserver])) {
            ProfileViewModel().bindCapturingSelf()
        }
    }
}
