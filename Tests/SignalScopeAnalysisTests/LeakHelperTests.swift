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

@Suite("expectNoSignalLeaks", .timeLimit(.minutes(10)))
struct LeakHelperTests {
    @Test("A leaky closure fails the check, at the leak's line")
    func leakyFails() {
        withKnownIssue {
            expectNoSignalLeaks { ProfileViewModel().bindCapturingSelf() }
        } matching: { issue in
            issue.sourceLocation?.line == 10 && "\(issue)".contains("self-captured-observer")
                && issue.sourceLocation?.filePath == #filePath
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

    @Test("Without try for a closure that throws nothing, with try for one that throws")
    func throwingClosures() throws {
        struct Failure: Error {}
        expectNoSignalLeaks { _ = ProfileViewModel() }
        #expect(throws: Failure.self) { try expectNoSignalLeaks { throw Failure() } }
    }

    private static func leaks(_ trace: Trace) -> [Finding] {
        trace.analyze().findings
    }

    private final class Escape: @unchecked Sendable {  // written by one thread, read after it ended
        weak var model: ProfileViewModel?
    }

    private static func onAnotherThread(_ work: @escaping @Sendable () -> Void) {
        let thread = Thread(block: work)
        thread.start()
        while !thread.isFinished { Thread.sleep(forTimeInterval: 0.001) }
    }

    @Test("Work the test schedules on a SignalScope scheduler is the test's; a thread it starts itself is not")
    func attribution() {
        // Ground truth: the object made on the other thread really stays alive.
        let escape = Escape()
        Self.onAnotherThread { let model = ProfileViewModel(); model.bindCapturingSelf(); escape.model = model }
        #expect(escape.model != nil)

        let onOwnThread = Tracer.record { Self.onAnotherThread { ProfileViewModel().bindCapturingSelf() } }
        #expect(Self.leaks(onOwnThread).isEmpty, "a thread of its own is not the recorded code's")

        let scheduled = Tracer.record {
            let done = DispatchSemaphore(value: 0)
            QueueScheduler().schedule {
                ProfileViewModel().bindCapturingSelf()
                done.signal()
            }
            done.wait()
        }
        #expect(Self.leaks(scheduled).map(\.rule) == [.selfCapturedObserver], "an action it scheduled is")
    }

    @Test("An async recording judges what its task made after an await, on whatever thread it resumed, and what its child tasks made")
    func asyncRecording() async {
        let resumed = await Tracer.record {
            await Task.yield()
            ProfileViewModel().bindCapturingSelf()
        }
        #expect(Self.leaks(resumed).map(\.rule) == [.selfCapturedObserver])
        let children = await Tracer.record {
            async let child: Void = ProfileViewModel().bindCapturingSelf()
            await child
            await Task { ProfileViewModel().bindCapturingSelf() }.value
        }
        #expect(Self.leaks(children).map(\.rule) == [.selfCapturedObserver], "one finding at one line, made twice")
        #expect(Self.leaks(children).first?.count == 2)
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

    func testAsyncPassesWhenClean() async {
        await XCTAssertNoSignalLeaks {
            await Task.yield()
            let model = ProfileViewModel()
            model.bindWeakly()
            model.name.value = "Ada"
        }
    }

    func testAllowedLeakPasses() {
        XCTAssertNoSignalLeaks(allowing: LeakAllowance(rules: [.selfCapturedObserver])) {
            ProfileViewModel().bindCapturingSelf()
        }
    }
}
