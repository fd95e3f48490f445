import CSandbox
import Foundation
import SignalScopeTools
import Synchronization
import Testing

/// When the closing heap walk could not see everything, the analysis says so, so that a
/// leak check never passes on what it did not look at.
@Suite("What the analysis could not see", .timeLimit(.minutes(10)))
struct LimitationsTests {
    final class Screen {
        let taps = Subject<Int>()
        var count = 0

        func observe() { taps.subscribeNext { _ in self.count += 1 } }
    }

    @Test("A heap walk that runs out of budget says so, and reports no leak it could not prove")
    func budget() {
        // Other suites record alongside: judge only this file's findings.
        let here = { (report: AnalysisReport) in report.findings.filter { $0.location.file == "SignalScopeAnalysisTests/LimitationsTests.swift" } }
        let trace = Tracer.record(heapLimits: TraceHeap.Limits(objects: 3, depth: 100)) { Screen().observe() }
        #expect(trace.heap.objectLimitReached && !trace.heap.isComplete)
        let report = trace.analyze()
        // The cycle was not explored whole, so no leak through it is proven; what the walk
        // did see in full (the subscription alone holds its disposable) may still be said.
        #expect(here(report).allSatisfy { $0.severity != .error }, "\(here(report))")
        #expect(report.limitations.count == 1)
        #expect(report.limitations.first?.hasPrefix("the heap walk stopped at its budget of 3 objects") == true)
        #expect(report.limitations.first?.contains("SIGNALSCOPE_HEAP_OBJECTS") == true)

        let shallow = Tracer.record(heapLimits: TraceHeap.Limits(objects: 1_000, depth: 1)) { Screen().observe() }
        #expect(shallow.analyze().limitations.first?.hasPrefix("the heap walk stopped at its depth budget of 1 references") == true)

        let whole = Tracer.record { Screen().observe() }
        #expect(whole.heap.isComplete && whole.analyze().limitations.isEmpty)
        #expect(here(whole.analyze()).map(\.rule) == [.selfCapturedObserver])
    }

    @Test("The budget comes from the environment; a value that is not a positive integer is named and the standard one kept")
    func budgetFromEnvironment() {
        let set = TraceHeap.Limits.fromEnvironment(["SIGNALSCOPE_HEAP_OBJECTS": "500", "SIGNALSCOPE_HEAP_DEPTH": "40"])
        #expect(set.limits == TraceHeap.Limits(objects: 500, depth: 40) && set.problems.isEmpty)
        let bad = TraceHeap.Limits.fromEnvironment(["SIGNALSCOPE_HEAP_OBJECTS": "lots", "SIGNALSCOPE_HEAP_DEPTH": "-1"])
        #expect(bad.limits == .standard)
        #expect(bad.problems == [
            "SIGNALSCOPE_HEAP_OBJECTS=lots is not a positive integer; using 200000",
            "SIGNALSCOPE_HEAP_DEPTH=-1 is not a positive integer; using 10000",
        ])
        #expect(TraceHeap.Limits.fromEnvironment([:]).limits == .standard)
    }

    @Test("In a sandbox that denies reading memory through the kernel, the walk reads its frozen copy directly and finds the leak")
    func memoryUnreadableThroughTheKernel() async {
        await #expect(processExitsWith: .success) {
            guard signalscope_test_deny_process_vm_readv() else { exit(2) }  // no seccomp here: nothing to show
            let trace = Tracer.record { Screen().observe() }
            let report = trace.analyze()
            let found = trace.heap.isComplete && report.limitations.isEmpty
                && report.findings.contains { $0.rule == .selfCapturedObserver && $0.location.file.hasSuffix("LimitationsTests.swift") }
            exit(found ? 0 : 1)
        }
    }

    @Test("Another instrument's allocation hooks: no allocation table, the trace says garbage no signal reaches was not looked for")
    func anotherInstrument() async {
        await #expect(processExitsWith: .success) {
            // The runtime's switch for its allocation and reference-counting hooks, as another
            // instrument would leave it: neither off (0) nor what SignalScope sets (2).
            guard let symbol = dlsym(nil, "_swift_enableSwizzlingOfAllocationAndRefCountingFunctions_forInstrumentsOnly")
            else { exit(2) }
            symbol.storeBytes(of: 3, as: UInt8.self)
            let trace = Tracer.record { Screen().observe() }
            let limitations = trace.analyze().limitations
            let said = !trace.heap.coversAllocations
                && limitations.contains { $0.hasPrefix("the recording could not keep a table of the objects allocated while it ran") }
            exit(said ? 0 : 1)
        }
    }

    @Test("In a sandbox that denies fork and reading memory through the kernel, the trace says no heap was walked, and why")
    func noFrozenCopy() async {
        await #expect(processExitsWith: .success) {
            // Threads, so that the walk could not be made in place without racing them.
            let running = Atomic<Bool>(true)
            let thread = Thread { while running.load(ordering: .relaxed) { usleep(1_000) } }
            thread.start()
            defer { running.store(false, ordering: .relaxed) }
            guard signalscope_test_deny_fork_and_process_vm_readv() else { exit(2) }
            let trace = Tracer.record { Screen().observe() }
            let report = trace.analyze()
            let said = !trace.heap.isComplete && report.findings.allSatisfy { $0.severity != .error }
                && report.limitations.first?.hasPrefix("no consistent heap snapshot could be taken (no copy of the process could be made") == true
            exit(said ? 0 : 1)
        }
    }

    // MARK: Known risks (docs/analyzers.md): each one shown, with the truth from a weak reference

    /// Findings made in this file by `trace`.
    private func findingsHere(_ trace: Trace) -> [Finding] {
        trace.analyze().findings.filter { $0.location.file == "SignalScopeAnalysisTests/LimitationsTests.swift" }
    }

    final class GuardedScreen {
        let child = Mutex<ChildView?>(nil)
    }

    final class ChildView: @unchecked Sendable {
        let taps = Subject<Int>()
    }

    @Test("A noncopyable field of an app's class (a Mutex) is scanned conservatively: the leak it may hide is named as unproven, never proven nor left unsaid")
    func noncopyableField() throws {
        weak var watched: GuardedScreen?
        let trace = Tracer.record {
            let screen = GuardedScreen()
            let child = ChildView()
            child.taps.subscribeNext { _ in withExtendedLifetime(screen) {} }
            screen.child.withLock { $0 = child }
            watched = screen
        }
        try #require(watched != nil, "ground truth: the screen leaks")
        let screen = try #require(trace.heap.objects.values.first { $0.typeName.hasSuffix("GuardedScreen") })
        #expect(screen.exploration == .partial, "the walk says it could not read the whole screen")
        // The subject counts as held by something unseen: the cycle is not proven (what is
        // still true, that nothing holds the subscription's disposable, may be said)...
        #expect(findingsHere(trace).allSatisfy { $0.severity != .error }, "\(findingsHere(trace))")
        // ...and the analysis says what it could not prove, and why.
        let limitations = trace.analyze().limitations
        #expect(
            limitations.contains("could not prove whether ChildView and GuardedScreen leak: GuardedScreen.child holds a value the walk cannot decode (a noncopyable type, or one without reflection metadata)"),
            "\(limitations)")
    }

    final class Worker {
        let ticks = Subject<Int>()
        var count = 0

        func start() { ticks.subscribeNext { _ in self.count += 1 } }
    }

    @Test("Risk: a leak still in use when recording stops (held by code that is running) counts as held, not leaked")
    func inUseAtTheSnapshot() throws {
        weak var watched: Worker?
        var inUse: Worker?
        let trace = Tracer.record {
            let worker = Worker()
            worker.start()
            watched = worker
            inUse = worker
        }
        withExtendedLifetime(inUse) {}
        inUse = nil
        try #require(watched != nil, "ground truth: once let go of, the worker leaks with the subject")
        #expect(findingsHere(trace).allSatisfy { $0.severity != .error }, "at the snapshot it was held: no leak is proven")
    }
}
