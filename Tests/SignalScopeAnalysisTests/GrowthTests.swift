import LeakCorpus
import SignalScopeTesting
import SignalScopeTools
import Testing
import XCTest

/// Growth over repetitions: each scenario's ground truth first (weak references to the
/// screens it made, the observers a login still reaches), then what the analysis says of
/// five repetitions with a checkpoint after each. The scenarios share their app-long holders,
/// so this suite runs one test at a time.
@Suite("Growth over repetitions", .serialized, .timeLimit(.minutes(10)))
struct GrowthTests {
    static let leaky = GrowthScenario.allCases.filter(\.leaks)

    /// Five repetitions of `scenario` in one recording, a checkpoint after each; then a login
    /// sent, and what it left alive.
    static func repeated(_ scenario: GrowthScenario, fixed: Bool) -> (trace: Trace, witness: GrowthScenario.Witness) {
        scenario.reset()
        let witness = GrowthScenario.Witness()
        let trace = Tracer.record {
            for _ in 0..<5 {
                scenario.openAndClose(fixed: fixed, witness: witness)
                Tracer.checkpoint("screen closed")
            }
        }
        GrowthScenario.sendLogin()
        return (trace, witness)
    }

    /// The findings about the scenarios' file.
    static func findings(_ trace: Trace) -> [Finding] {
        trace.analyze().findings.filter { $0.location.file == "LeakCorpus/Growth.swift" || $0.showsGrowth }
    }

    @Test("A screen that leaves one more thing behind each time is one growth finding at the fix line, with its counts and the path of the newest", arguments: leaky)
    func leakyScenarioGrows(scenario: GrowthScenario) throws {
        let (trace, witness) = Self.repeated(scenario, fixed: false)
        defer { scenario.reset() }
        // Ground truth: what each repetition left is still there.
        switch scenario {
        case .sessionSubscriptions:
            #expect(witness.screensAlive == 0, "the screens follow the session weakly")
            #expect(witness.loginsSeen.load(ordering: .relaxed) == 5, "every screen's subscription still follows the logins")
        default:
            #expect(witness.screensAlive == 5, "every screen made is still alive")
        }
        let findings = Self.findings(trace)
        let expected = try #require(scenario.expected)
        #expect(findings.map { "\($0.rule)@\($0.location.line)" } == ["\(expected)"], "\(findings)")
        let finding = try #require(findings.first)
        #expect(finding.showsGrowth && finding.severity == .error)
        let counted = finding.path.contains { $0.contains("alive at each \"screen closed\"") && $0.contains(": 1, 2, 3, 4, 5, 1 more at every one after the first") }
        #expect(counted, "\(finding.path)")
        #expect(finding.path.contains { $0.hasPrefix("the newest, ") }, "\(finding.path)")
        let hasDigits = finding.message.contains(where: \.isNumber)
        #expect(!hasDigits, "a message has no counts or lines: \(finding.message)")
        // Every reference of the path is one the closing snapshot saw.
        let references = Set(trace.heap.references)
        #expect(finding.evidence.allSatisfy(references.contains))
        if scenario != .sessionSubscriptions { #expect(!finding.evidence.isEmpty, "the newest screen's holders are on the path") }
    }

    @Test("The fixed twin leaves nothing behind and gets no finding", arguments: leaky)
    func fixedTwinDoesNotGrow(scenario: GrowthScenario) {
        let (trace, witness) = Self.repeated(scenario, fixed: true)
        defer { scenario.reset() }
        #expect(witness.screensAlive == 0)
        #expect(witness.loginsSeen.load(ordering: .relaxed) == 0)
        #expect(Self.findings(trace).isEmpty, "\(Self.findings(trace))")
    }

    @Test("A cache filled once and a pool that stops at its bound are not growth")
    func warmUpAndBoundsAreNotGrowth() {
        let (filled, filledWitness) = Self.repeated(.filledOnce, fixed: false)
        GrowthScenario.filledOnce.reset()
        #expect(filledWitness.screensAlive == 0)
        #expect(Self.findings(filled).isEmpty, "\(Self.findings(filled))")
        let (pool, poolWitness) = Self.repeated(.boundedPool, fixed: false)
        defer { GrowthScenario.boundedPool.reset() }
        #expect(poolWitness.screensAlive == 2, "the pool keeps the two most recent screens")
        #expect(Self.findings(pool).isEmpty, "\(Self.findings(pool))")
    }

    @Test("Two checkpoints cannot tell growth from a warm-up, and growth must hold at every checkpoint")
    func tooFewOrUnevenCheckpoints() {
        GrowthScenario.staticCache.reset()
        defer { GrowthScenario.staticCache.reset() }
        let witness = GrowthScenario.Witness()
        let two = Tracer.record {
            for _ in 0..<2 {
                GrowthScenario.staticCache.openAndClose(fixed: false, witness: witness)
                Tracer.checkpoint("screen closed")
            }
        }
        #expect(Self.findings(two).isEmpty)
        GrowthScenario.staticCache.reset()
        // Grows, then stays: the third checkpoint sees what the second did.
        let flat = Tracer.record {
            for pass in 0..<4 {
                if pass != 2 { GrowthScenario.staticCache.openAndClose(fixed: false, witness: witness) }
                Tracer.checkpoint("screen closed")
            }
        }
        #expect(Self.findings(flat).isEmpty)
    }

    @Test("expectNoSignalGrowth fails on growth at the fix line, passes the fixed twin, and refuses fewer than three repetitions")
    func growthCheck() async {
        GrowthScenario.observerRegistry.reset()
        withKnownIssue {
            expectNoSignalGrowth { GrowthScenario.observerRegistry.openAndClose(fixed: false, witness: GrowthScenario.Witness()) }
        } matching: { issue in
            issue.sourceLocation?.line == 181 && "\(issue)".contains("grows-per-repetition") && "\(issue)".contains("1, 2, 3, 4, 5")
        }
        GrowthScenario.observerRegistry.reset()
        expectNoSignalGrowth { GrowthScenario.observerRegistry.openAndClose(fixed: true, witness: GrowthScenario.Witness()) }
        await expectNoSignalGrowth(repeating: 4) {
            await Task.yield()
            GrowthScenario.observerRegistry.openAndClose(fixed: true, witness: GrowthScenario.Witness())
        }
        withKnownIssue {
            expectNoSignalGrowth(repeating: 2) { Issue.record("the body must not run") }
        } matching: { issue in
            "\(issue)".contains("at least 3 repetitions")
        }
        GrowthScenario.observerRegistry.reset()
    }

    @Test("A growth check judges growth: a leak made once passes it (expectNoSignalLeaks judges that), a cycle made every time fails it")
    func onlyGrowthFails() {
        var made = false
        expectNoSignalGrowth {
            guard !made else { return }
            made = true
            let property = MutableProperty("")
            property.signal.subscribeNext { _ in _ = property }
        }
        withKnownIssue {
            expectNoSignalGrowth {
                let property = MutableProperty("")
                property.signal.subscribeNext { _ in _ = property }
            }
        } matching: { issue in "\(issue)".contains("1, 2, 3, 4, 5") }
    }
}

final class GrowthXCTests: XCTestCase {
    func testFixedTwinPassesGrowthCheck() {
        GrowthScenario.staticCache.reset()
        XCTAssertNoSignalGrowth { GrowthScenario.staticCache.openAndClose(fixed: true, witness: GrowthScenario.Witness()) }
        GrowthScenario.staticCache.reset()
    }

    func testAsyncFixedTwinPassesGrowthCheck() async {
        GrowthScenario.staticCache.reset()
        await XCTAssertNoSignalGrowth(repeating: 3) {
            await Task.yield()
            GrowthScenario.staticCache.openAndClose(fixed: true, witness: GrowthScenario.Witness())
        }
        GrowthScenario.staticCache.reset()
    }
}
