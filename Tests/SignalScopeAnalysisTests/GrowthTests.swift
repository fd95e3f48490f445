import Foundation
import LeakCorpus
import SignalScopeTesting
import SignalScopeTools
import Testing
import XCTest

/// Growth over repetitions: each scenario's ground truth first (weak references to the
/// screens it made, the observers a login still reaches), then what the analysis says of
/// five repetitions with a checkpoint after each (`GrowthScenario.repeated`). Each run has an
/// app of its own, so these run beside the leak corpus, which repeats them too.
@Suite("Growth over repetitions", .timeLimit(.minutes(10)))
struct GrowthTests {
    static let leaky = GrowthScenario.allCases.filter(\.leaks)

    /// The findings about the scenarios' file.
    static func findings(_ trace: Trace) -> [Finding] {
        trace.analyze().findings.filter { $0.location.file == "LeakCorpus/Growth.swift" || $0.showsGrowth }
    }

    @Test("A screen that leaves one more thing behind each time is one growth finding at the fix line, with its counts and the path of the newest", arguments: leaky)
    func leakyScenarioGrows(scenario: GrowthScenario) throws {
        let (trace, app) = scenario.repeated(fixed: false)
        // Ground truth: what each repetition left is still there.
        switch scenario {
        case .sessionSubscriptions:
            #expect(app.screensAlive == 0, "the screens follow the session weakly")
            #expect(app.loginsSeen.load(ordering: .relaxed) == 5, "every screen's subscription still follows the logins")
        default:
            #expect(app.screensAlive == 5, "every screen made is still alive")
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
        let (trace, app) = scenario.repeated(fixed: true)
        #expect(app.screensAlive == 0)
        #expect(app.loginsSeen.load(ordering: .relaxed) == 0)
        #expect(Self.findings(trace).isEmpty, "\(Self.findings(trace))")
    }

    @Test("A cache filled once and a pool that stops at its bound are not growth")
    func warmUpAndBoundsAreNotGrowth() {
        let (filled, filledApp) = GrowthScenario.filledOnce.repeated(fixed: false)
        #expect(filledApp.screensAlive == 0)
        #expect(Self.findings(filled).isEmpty, "\(Self.findings(filled))")
        let (pool, poolApp) = GrowthScenario.boundedPool.repeated(fixed: false)
        #expect(poolApp.screensAlive == 2, "the pool keeps the two most recent screens")
        #expect(Self.findings(pool).isEmpty, "\(Self.findings(pool))")
    }

    @Test("Two checkpoints cannot tell growth from a warm-up, and growth must hold at every checkpoint")
    func tooFewOrUnevenCheckpoints() {
        let app = GrowthScenario.App()
        let two = Tracer.record {
            for _ in 0..<2 {
                GrowthScenario.staticCache.openAndClose(fixed: false, in: app)
                Tracer.checkpoint("screen closed")
            }
        }
        #expect(Self.findings(two).isEmpty)
        let other = GrowthScenario.App()
        // Grows, then stays: the third checkpoint sees what the second did.
        let flat = Tracer.record {
            for pass in 0..<4 {
                if pass != 2 { GrowthScenario.staticCache.openAndClose(fixed: false, in: other) }
                Tracer.checkpoint("screen closed")
            }
        }
        #expect(Self.findings(flat).isEmpty)
    }

    @Test("A trace read keeping only live entities counts what each checkpoint saw, though a subscription it counted ended later")
    func countsSurviveLiveEntitiesReading() throws {
        let subject = Subject<Int>()
        var disposables: [Disposable] = []
        let (trace, log) = Tracer.recordKeepingLog {
            for _ in 0..<4 {
                disposables.append(subject.subscribeNext { _ in })
                Tracer.checkpoint("pass")
            }
            disposables[0].dispose()
        }
        let live = try Trace(data: Data(log), path: "memory", detail: .liveEntities)
        let everything = trace.analyze().findings.filter(\.showsGrowth), streamed = live.analyze().findings.filter(\.showsGrowth)
        #expect(everything.count == 1)
        #expect(everything.first?.path.contains { $0.hasSuffix(": 1, 2, 3, 4, 1 more at every one after the first") } == true, "\(everything)")
        #expect(streamed.map(\.path) == everything.map(\.path))
    }

    @Test("expectNoSignalGrowth fails on growth at the fix line, passes the fixed twin, and refuses fewer than three repetitions")
    func growthCheck() async {
        let leaky = GrowthScenario.App()
        withKnownIssue {
            expectNoSignalGrowth { GrowthScenario.observerRegistry.openAndClose(fixed: false, in: leaky) }
        } matching: { issue in
            issue.sourceLocation?.line == 170 && "\(issue)".contains("grows-per-repetition") && "\(issue)".contains("1, 2, 3, 4, 5")
        }
        let fixed = GrowthScenario.App()
        expectNoSignalGrowth { GrowthScenario.observerRegistry.openAndClose(fixed: true, in: fixed) }
        await expectNoSignalGrowth(repeating: 4) {
            await Task.yield()
            GrowthScenario.observerRegistry.openAndClose(fixed: true, in: fixed)
        }
        withKnownIssue {
            expectNoSignalGrowth(repeating: 2) { Issue.record("the body must not run") }
        } matching: { issue in
            "\(issue)".contains("at least 3 repetitions")
        }
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
        let app = GrowthScenario.App()
        XCTAssertNoSignalGrowth { GrowthScenario.staticCache.openAndClose(fixed: true, in: app) }
    }

    func testAsyncFixedTwinPassesGrowthCheck() async {
        let app = GrowthScenario.App()
        await XCTAssertNoSignalGrowth(repeating: 3) {
            await Task.yield()
            GrowthScenario.staticCache.openAndClose(fixed: true, in: app)
        }
    }
}
