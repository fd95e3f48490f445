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

@Suite("expectNoSignalLeaks", .serialized)
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

    /// A recording sees every thread; these tests judge only what this file leaked.
    private static func leaks(_ trace: Trace) -> [Finding] {
        trace.analyze().findings.filter { $0.location.file == "SignalScopeAnalysisTests/LeakHelperTests.swift" }
    }

    private final class Escape: @unchecked Sendable {  // written by one thread, read after it ended
        weak var model: ProfileViewModel?
    }

    private static func onAnotherThread(_ work: @escaping @Sendable () -> Void) {
        let thread = Thread(block: work)
        thread.start()
        while !thread.isFinished { Thread.sleep(forTimeInterval: 0.001) }
    }

    @Test("The check of the calling thread misses a leak made on another thread; one of every thread sees it")
    func threads() {
        // Ground truth: the object made on the other thread really stays alive.
        let escape = Escape()
        Self.onAnotherThread { let model = ProfileViewModel(); model.bindCapturingSelf(); escape.model = model }
        #expect(escape.model != nil)

        let recording = Tracer.recordOnCallingThread { Self.onAnotherThread { ProfileViewModel().bindCapturingSelf() } }
        #expect(Self.leaks(recording.callingThread).isEmpty, "what threads: .callingThread judges")
        #expect(Self.leaks(recording.trace).map(\.rule) == [.selfCapturedObserver], "what threads: .allThreads judges")
    }

    @Test("An async recording judges what was made after an await, on whatever thread it resumed")
    func asyncRecording() async {
        let trace = await Tracer.record {
            await Task.yield()
            await Task.detached { ProfileViewModel().bindCapturingSelf() }.value
        }
        #expect(Self.leaks(trace).map(\.rule) == [.selfCapturedObserver])
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

    func testAsyncAndAllThreadsPassWhenClean() async {
        // XCTest runs one test at a time, so a check of every thread sees this test alone.
        await XCTAssertNoSignalLeaks {
            await Task.yield()
            let model = ProfileViewModel()
            model.bindWeakly()
            model.name.value = "Ada"
        }
        XCTAssertNoSignalLeaks(threads: .allThreads) {
            let thread = Thread { ProfileViewModel().bindWeakly() }
            thread.start()
            while !thread.isFinished { Thread.sleep(forTimeInterval: 0.001) }
        }
    }

    func testAllowedLeakPasses() {
        XCTAssertNoSignalLeaks(allowing: LeakAllowance(rules: [.selfCapturedObserver])) {
            ProfileViewModel().bindCapturingSelf()
        }
    }
}
