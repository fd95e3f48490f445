import Foundation
import Synchronization
import SignalScopeTesting
import SignalScopeTools
@testable import SignalScopeTracing
import Testing

/// Objects the program says should be freed by a deadline (`Tracer.expectDeallocation`), as
/// a leak finder that watches objects does: still alive then, they are proven retained by the
/// chain of strong references from a snapshot taken at that moment; freed later, they are
/// retained then released; freed in time, nothing is said.
@Suite("Watched objects", .timeLimit(.minutes(10)))
struct WatchedObjectTests {
    final class ProfileScreen {
        var name = ""
        var subscription: Disposable?
    }

    /// A subject the app keeps for its whole life, as a global would.
    final class Session: @unchecked Sendable {
        let updates = Subject<String>()
    }

    private static func retained(in trace: Trace) -> [RetainedObject] {
        trace.extendedEvents.compactMap { if case .extended(let event) = $0.event { event.payload as? RetainedObject } else { nil } }
    }

    /// Every reference of every step is true of the live heap: the holder's memory holds the target.
    private static func expectTrue(_ finding: Finding, against retained: RetainedObject) {
        let heap = retained.heap
        let references = finding.steps.flatMap(\.references)
        #expect(!references.isEmpty)
        for reference in references {
            guard let holder = heap.objects[reference.from], let target = heap.objects[reference.to] else {
                Issue.record("a step names an object the chain does not have")
                continue
            }
            #expect(
                LeakCorpusTests.holds(UInt(holder.address), UInt(target.address), at: reference.offset),
                "\(holder.typeName) does not hold \(target.typeName) as \(reference.kind) \(reference.path)")
        }
    }

    @Test("A dismissed screen a long-lived subject's subscriber keeps: retained-after-release at the expectation's line, the path from the subject to the screen, each step true; with every rule, one finding at the capture that says what the program declared")
    func retainedBySubjectOfTheSession() throws {
        let session = Session()
        weak var leaked: ProfileScreen?
        var expectedLine = 0, captureLine = 0
        let trace = Tracer.record {
            do {
                let screen = ProfileScreen()
                leaked = screen
                screen.subscription = session.updates.subscribeNext { screen.name = $0 }; captureLine = #line
                // The screen is dismissed, but its subscription to the session was never ended.
                Tracer.expectDeallocation(of: screen, within: .milliseconds(20), because: "ProfileScreen dismissed"); expectedLine = #line
            }
            // The deadline passes while recording (a deadline still to come when recording
            // ends is not judged), once nothing on this stack holds the screen: the snapshot
            // that proves it is the watchlist's, or the closing one if that thread is late.
            Thread.sleep(forTimeInterval: 0.05)
        }
        defer { session.updates.sendCompleted() }
        #expect(leaked != nil, "ground truth: the session's subject keeps the subscriber, which keeps the screen")
        let findings = trace.analyze(rules: [.retainedAfterRelease]).findings
        let finding = try #require(findings.first)
        #expect(findings.count == 1)
        #expect(finding.location.line == expectedLine && finding.location.file.hasSuffix("WatchedObjectTests.swift"))
        #expect(finding.message == "ProfileScreen was not freed after \"ProfileScreen dismissed\"")
        // The session (made before the trace, as a global would be) holds the subject from outside the walk.
        #expect(finding.path.contains { $0.hasPrefix("Subject<String> is held from outside what the heap walk reached") }, "\(finding)")
        #expect(finding.path.contains { $0.hasPrefix("Subject<String> keeps an array whose element 0 is subscription #") }, "\(finding)")
        #expect(finding.path.contains { $0.contains("captures ProfileScreen") }, "\(finding)")
        let retained = try #require(Self.retained(in: trace).first)
        Self.expectTrue(finding, against: retained)
        // One leak, one finding: the screen's capture of itself, where the fix goes, starting
        // with what the program declared.
        let all = trace.analyze().findings
        #expect(all.map(\.rule) == [.selfCapturedObserver] && all.first?.location.line == captureLine, "\(all)")
        #expect(all.first?.path.first == finding.path.first, "\(all)")
    }

    @Test("The deadline passing while the program runs takes the snapshot then: the trace says so, and a file recording prints one line naming the trace")
    func midRunSnapshot() async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("signalscope-watch-\(getppid()).sslog").path
            try? FileManager.default.removeItem(atPath: path)
            try Tracer.startRecording(to: URL(fileURLWithPath: path))
            let session = Session()
            var screen: ProfileScreen? = ProfileScreen()
            screen!.subscription = session.updates.subscribeNext { [screen] in screen?.name = $0 }
            Tracer.expectDeallocation(of: screen!, within: .milliseconds(20), because: "ProfileScreen dismissed")
            screen = nil
            usleep(1_000_000)
            try Tracer.stopRecording()
            withExtendedLifetime(session) {}
        }
        let printed = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(printed.contains("signalscope: retained-after-release: ProfileScreen is still alive"), "\(printed)")
        #expect(printed.contains("\"ProfileScreen dismissed\" (SignalScopeAnalysisTests/WatchedObjectTests.swift:"), "\(printed)")
        #expect(printed.contains("see it with: signalscope report "), "\(printed)")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("signalscope-watch-\(getpid()).sslog").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let trace = try Trace(contentsOf: URL(fileURLWithPath: path))
        let retained = try #require(Self.retained(in: trace).first)
        #expect(retained.isMidRun)
        #expect(trace.analyze(rules: [.retainedAfterRelease]).findings.count == 1)
    }

    @Test("An object still alive at its deadline and freed later is retained, then released: no finding")
    func retainedThenReleased() throws {
        weak var freed: ProfileScreen?
        let session = Session()
        let trace = Tracer.record {
            let screen = ProfileScreen()
            freed = screen
            screen.subscription = session.updates.subscribeNext { screen.name = $0 }
            Tracer.expectDeallocation(of: screen, within: .milliseconds(10), because: "ProfileScreen dismissed")
            // Still held when the deadline passes; released well after it.
            Thread.sleep(forTimeInterval: 0.5)
            screen.subscription?.dispose()
        }
        #expect(freed == nil)
        #expect(!trace.analyze().findings.contains { $0.rule == .retainedAfterRelease })
        let released = trace.extendedEvents.contains { if case .extended(let event) = $0.event { event.payload is ReleasedObject } else { false } }
        #expect(Self.retained(in: trace).first?.isMidRun == true, "judged at its deadline, while the screen was held")
        #expect(released, "and released later in the run")
        session.updates.sendCompleted()
    }

    @Test("The closing snapshot says when it saw the object, past which deadline: never the deadline as if it were the time the recording ended")
    func closingTiming() {
        #expect(RetainedObject.closingTiming(within: .milliseconds(500), late: .milliseconds(1_600)) == ("when recording ended, 2.1 seconds after", ", past its deadline of 0.5 seconds"))
        // A log before format 3.7 wrote no time for the closing snapshot.
        #expect(RetainedObject.closingTiming(within: .milliseconds(500), late: .zero) == ("when recording ended, after", ", past its deadline of 0.5 seconds"))
        // An object that had to be gone only by the end has no deadline to be past.
        #expect(RetainedObject.closingTiming(within: .zero, late: .zero) == ("when recording ended, after", ""))
    }

    @Test("An object freed before its deadline, and one whose deadline is still to come, are not reported")
    func freedInTime() throws {
        let session = Session()
        let trace = Tracer.record {
            let screen = ProfileScreen()
            screen.subscription = session.updates.take(1).subscribeNext { [weak screen] in screen?.name = $0 }
            Tracer.expectDeallocation(of: screen, within: .milliseconds(10), because: "ProfileScreen dismissed")
            let later = ProfileScreen()
            Tracer.expectDeallocation(of: later, within: .seconds(60), because: "not yet")
            session.updates.sendNext("done")
        }
        #expect(trace.analyze().findings.isEmpty, "\(trace.analyze().findings)")
        #expect(Self.retained(in: trace).isEmpty)
        session.updates.sendCompleted()
    }

    @Test("An object a variable outside the walked heap still holds: the path says it is held from outside, and claims no chain")
    func heldFromOutside() throws {
        var kept: ProfileScreen?
        let trace = Tracer.record {
            let screen = ProfileScreen()
            kept = screen
            Tracer.expectDeallocationWhenRecordingEnds(
                of: screen, because: "the test ended", site: SourceLocation(fileID: #fileID, line: #line, function: #function))
        }
        #expect(kept != nil, "ground truth: the test's variable holds it")
        let finding = try #require(trace.analyze().findings.first { $0.rule == .retainedAfterRelease })
        #expect(finding.path.count == 2, "\(finding)")
        #expect(finding.path.last?.hasPrefix("ProfileScreen is held from outside what the heap walk reached") == true, "\(finding)")
        #expect(finding.steps.allSatisfy { $0.references.isEmpty })
        kept = nil
    }

    /// Two objects holding each other, one of which holds the screen.
    final class Holder {
        var other: Holder?
        var screen: ProfileScreen?
    }

    @Test("An object a cycle holds without being on it: the path runs round the cycle and down to it, and never says something outside holds it")
    func heldByACycleAboveIt() throws {
        weak var leaked: ProfileScreen?
        let trace = Tracer.record {
            let first = Holder(), second = Holder()
            (first.other, second.other) = (second, first)
            let screen = ProfileScreen()
            first.screen = screen
            leaked = screen
            Tracer.expectDeallocationWhenRecordingEnds(
                of: screen, because: "the test ended", site: SourceLocation(fileID: #fileID, line: #line, function: #function))
        }
        #expect(leaked != nil, "ground truth: the cycle keeps the screen")
        let finding = try #require(trace.analyze(rules: [.retainedAfterRelease]).findings.first)
        #expect(!finding.path.contains { $0.contains("held from outside") }, "\(finding)")
        #expect(finding.path.last == "nothing outside holds them: they, and everything that holds them, are held only by one another", "\(finding)")
        let retained = try #require(Self.retained(in: trace).first)
        #expect(retained.chain.count == 3 && retained.chain.last?.to == retained.target, "round the cycle, then down: \(finding)")
        Self.expectTrue(finding, against: retained)
        // With every rule: the cycle, at the property to make weak, which keeps the screen.
        let all = trace.analyze().findings
        #expect(all.map(\.rule) == [.retainCycle] && all.first?.path.first == finding.path.first, "\(all)")
        leaked?.subscription = nil
    }

    @Test("A snapshot that stopped at its budget says so where it speaks of what holds the object, instead of naming a global or a stack")
    func partialSnapshot() throws {
        let session = Session()
        weak var leaked: ProfileScreen?
        let trace = Tracer.record(heapLimits: TraceHeap.Limits(objects: 2, depth: 100)) {
            let screen = ProfileScreen()
            leaked = screen
            screen.subscription = session.updates.subscribeNext { screen.name = $0 }
            Tracer.expectDeallocationWhenRecordingEnds(
                of: screen, because: "the test ended", site: SourceLocation(fileID: #fileID, line: #line, function: #function))
        }
        defer { session.updates.sendCompleted() }
        #expect(leaked != nil, "ground truth: the session's subject keeps the screen")
        #expect(trace.heap.objectLimitReached)
        let retained = try #require(Self.retained(in: trace).first)
        #expect(retained.sawPartOfTheHeap)
        let finding = try #require(trace.analyze().findings.first { $0.rule == .retainedAfterRelease })
        #expect(finding.path.contains { $0.contains("the walk did not see the whole heap") }, "\(finding)")
        #expect(!finding.path.contains { $0.contains("by a global, a static") }, "\(finding)")
    }

    @Test("Screens leaked at one line, the second of them watched: one finding with a count, an error no allowance excuses, whose path starts with the declaration")
    func groupedWithADeclaration() throws {
        let session = Session()
        defer { session.updates.sendCompleted() }
        weak var first: ProfileScreen?, last: ProfileScreen?
        let trace = Tracer.record {
            for index in 0..<3 {
                let screen = ProfileScreen()
                if index == 0 { first = screen } else if index == 2 { last = screen }
                _ = session.updates.subscribeNext { screen.name = $0 }
                if index == 1 {
                    Tracer.expectDeallocationWhenRecordingEnds(
                        of: screen, because: "the second screen was closed", site: SourceLocation(fileID: #fileID, line: #line, function: #function))
                }
            }
        }
        #expect(first != nil && last != nil, "ground truth: the session's subject keeps every screen's subscriber")
        let findings = trace.analyze().findings
        let finding = try #require(findings.first)
        #expect(findings.count == 1 && finding.count == 3, "\(findings)")
        #expect(finding.severity == .error && finding.contradictsDeclaration, "\(finding)")
        #expect(finding.path.first?.contains("\"the second screen was closed\"") == true, "\(finding)")
    }

    @Test("Nothing records: expecting a deallocation does not keep the object")
    func noRecording() {
        weak var freed: ProfileScreen?
        do {
            let screen = ProfileScreen()
            freed = screen
            Tracer.expectDeallocation(of: screen, within: .zero, because: "untraced")
        }
        #expect(freed == nil, "the object is not kept")
    }

    @Test("A leak check's body names what must be gone: a screen its own observer keeps fails once, at the capture, saying what the body declared; its fixed twin passes")
    func leakCheckMustBeFreed() {
        let atTheCapture = Mutex(0)
        let line = #line + 5
        withKnownIssue {
            expectNoSignalLeaks { check in
                let screen = ProfileScreen()
                let updates = Subject<String>()
                screen.subscription = updates.subscribeNext { screen.name = $0 }
                check.mustBeFreed(screen, because: "the screen was closed")
            }
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            if text.contains("[self-captured-observer]"), text.contains("ProfileScreen was still alive when recording ended, after \"the screen was closed\""),
                issue.sourceLocation?.line == line
            {
                atTheCapture.withLock { $0 += 1 }
            }
            return text.hasPrefix("signal leak:")
        }
        #expect(atTheCapture.withLock { $0 } == 1)
        // Allowing the rule that explains the leak does not excuse what the body declared.
        let declared = Mutex(0)
        withKnownIssue {
            expectNoSignalLeaks(allowing: LeakAllowance(rules: [.selfCapturedObserver], outliving: ["ProfileScreen"])) { check in
                let screen = ProfileScreen()
                let updates = Subject<String>()
                screen.subscription = updates.subscribeNext { screen.name = $0 }
                check.mustBeFreed(screen, because: "the screen was closed")
            }
        } matching: { issue in
            if issue.comments.map(\.rawValue).joined().contains("[self-captured-observer]") { declared.withLock { $0 += 1 } }
            return true
        }
        #expect(declared.withLock { $0 } == 1)
        expectNoSignalLeaks { check in
            let screen = ProfileScreen()
            let updates = Subject<String>()
            screen.subscription = updates.subscribeNext { [weak screen] in screen?.name = $0 }
            updates.sendCompleted()
            check.mustBeFreed(screen, because: "the screen was closed")
        }
    }
}
