@testable import LeakCorpus
import Foundation
@testable import SignalScopeAnalysis
import SignalScopeTools
import Testing

/// Not serialized: each scenario's recording watches its own code (rule I10), so scenarios
/// and other suites recording at the same time never see each other's entities.
@Suite("The leak corpus", .timeLimit(.minutes(10)))
struct LeakCorpusTests {
    struct Scenario: Sendable, CustomTestStringConvertible {
        let name: String
        let run: @Sendable () -> CorpusOutcome
        var testDescription: String { name }
    }

    static let scenarios = LeakCorpus.scenarios.map { Scenario(name: $0.name, run: $0.run) }

    /// Every scenario run once, for every test: on as many threads as there are processors,
    /// so that recordings overlap as they do when tests run in parallel, and each recording
    /// must see only what its own scenario made (rule I10). Running each scenario again for
    /// its own test doubled the suite's time. (Unchecked: a trace is never changed once
    /// recorded, and each slot is written by one thread before any test reads it.)
    nonisolated(unsafe) static let outcomes: [(name: String, outcome: CorpusOutcome)] = {
        nonisolated(unsafe) let slots = UnsafeMutableBufferPointer<CorpusOutcome?>.allocate(capacity: scenarios.count)
        slots.initialize(repeating: nil)
        defer { slots.deallocate() }
        DispatchQueue.concurrentPerform(iterations: scenarios.count) { index in slots[index] = scenarios[index].run() }
        return zip(scenarios, slots).map { ($0.name, $1!) }
    }()

    @Test("Each scenario produces exactly its expected findings", arguments: scenarios)
    func scenario(_ scenario: Scenario) throws {
        let outcome = try #require(Self.outcomes.first { $0.name == scenario.name }?.outcome)
        if let watched = outcome.watched {
            try #require(
                watched.survived == watched.shouldSurvive,
                "ground truth: the object \(watched.survived ? "outlived" : "did not outlive") the scenario")
        }
        let found = outcome.findings.map { CorpusOutcome.Expected(rule: $0.rule, line: $0.location.line) }
        #expect(found.sorted { $0.description < $1.description } == outcome.expected.sorted { $0.description < $1.description },
                "\(outcome.findings.map(\.description).joined(separator: "\n"))")
    }

    @Test("Precision and recall over the whole corpus are both 100%")
    func precisionAndRecall() {
        var truePositives = 0, falsePositives = 0, falseNegatives = 0
        for (name, outcome) in Self.outcomes {
            var expected = outcome.expected
            for finding in outcome.findings {
                let found = CorpusOutcome.Expected(rule: finding.rule, line: finding.location.line)
                if let index = expected.firstIndex(of: found) {
                    expected.remove(at: index)
                    truePositives += 1
                } else {
                    falsePositives += 1
                    print("unexpected in \(name): \(finding)")
                }
            }
            falseNegatives += expected.count
        }
        let precision = Double(truePositives) / Double(max(1, truePositives + falsePositives))
        let recall = Double(truePositives) / Double(max(1, truePositives + falseNegatives))
        print("leak corpus: \(Self.scenarios.count) scenarios, precision \(Int(precision * 100))% "
            + "(\(truePositives)/\(truePositives + falsePositives)), recall \(Int(recall * 100))% "
            + "(\(truePositives)/\(truePositives + falseNegatives))")
        #expect(precision == 1 && recall == 1)
    }

    /// How many findings each leaked set of a scenario has: the closing snapshot's objects
    /// each leak finding accounts for, joined into one set where two findings share an object
    /// or an object of one strongly holds an object of the other (one leak keeping another
    /// alive is one leak).
    static func findingsPerLeakedSet(_ outcome: CorpusOutcome) -> [Int] {
        let leaks = outcome.findings.filter { !$0.explained.isEmpty }
        var parent = Array(leaks.indices)
        func root(_ index: Int) -> Int { parent[index] == index ? index : root(parent[index]) }
        func join(_ lhs: Int, _ rhs: Int) { parent[root(lhs)] = root(rhs) }
        var owner: [ObjectID: Int] = [:]
        for (index, finding) in leaks.enumerated() {
            for object in finding.explained {
                if let other = owner[object] { join(index, other) } else { owner[object] = index }
            }
        }
        for reference in outcome.trace.heap.references where !reference.isWeak {
            if let holder = owner[reference.from], let held = owner[reference.to] { join(holder, held) }
        }
        return Dictionary(grouping: leaks.indices, by: root).values.map(\.count)
    }

    @Test("One leaked set, one finding: the corpus prints the findings per leaked set, and each set has one; an object the program said should be freed is a step of its leak's finding, not a second one")
    func oneFindingPerLeakedSet() throws {
        var sets = 0, findings = 0
        for (name, outcome) in Self.outcomes {
            let perSet = Self.findingsPerLeakedSet(outcome)
            sets += perSet.count
            findings += perSet.reduce(0, +)
            #expect(perSet.allSatisfy { $0 == 1 }, "\(name): \(perSet) findings per leaked set\n\(outcome.findings.map(\.description).joined(separator: "\n"))")
        }
        print("leak corpus: \(sets) leaked sets, \(String(format: "%.2f", Double(findings) / Double(max(1, sets)))) findings per leaked set")
        #expect(sets > 0 && findings == sets)
        // The dismissed screen its own observer keeps: the capture's finding, an error, which
        // starts with what the app declared.
        let editor = try #require(Self.outcomes.first { $0.name == "dismissed editor observing itself" }?.outcome.findings.first)
        #expect(editor.path.first?.hasPrefix("ProfileEditor was still alive when recording ended, after \"the screen was dismissed\" (LeakCorpus/WatchedObjects.swift:") == true, "\(editor)")
        // Declared freed and kept by a subscription nothing can end: a warning's pattern, an error's evidence.
        let screen = try #require(Self.outcomes.first { $0.name == "dismissed screen the app's bus keeps" }?.outcome.findings.first)
        #expect(screen.rule == .leakedSubscription && screen.severity == .error, "\(screen)")
    }

    @Test("Disabling any rule never hides a proven leak: the next enabled rule that can report it does", arguments: RuleID.allCases)
    func selectionNeverHidesALeak(disabled: RuleID) {
        let others = Set(RuleID.allCases).subtracting([disabled])
        for (name, outcome) in Self.outcomes {
            let all = outcome.findings
            let chosen = outcome.trace.analyze(rules: others).findings.filter { $0.location.file == outcome.file }
            // What other rules found, they still find.
            for finding in all where finding.rule != disabled {
                #expect(chosen.contains { $0.rule == finding.rule && $0.location.line == finding.location.line },
                        "\(name): without \(disabled), \(finding.rule) at line \(finding.location.line) is gone")
            }
            // What a specific explanation of a leak reported, a general one still does (a
            // garbage cycle is a retain-cycle, an object only live signals hold is
            // kept-alive-by-signal); rules with no fallback (an unhandled error) go with it.
            guard [.selfCapturedObserver, .neverCompletedSubject].contains(disabled), all.contains(where: { $0.rule == disabled })
            else { continue }
            #expect(!chosen.isEmpty, "\(name): without \(disabled), the leak went unreported")
            let isGarbage = !outcome.trace.analyze(rules: [.retainCycle]).findings.isEmpty
            if isGarbage {
                #expect(chosen.contains { $0.severity == .error }, "\(name): without \(disabled), the proven cycle is no error")
            }
        }
    }

    @Test("One leak is one finding with a short path: thousands of subscriptions capturing one screen are one finding with a count")
    func pathsStayShort() throws {
        for (name, outcome) in Self.outcomes {
            for finding in outcome.findings {
                #expect(finding.steps.count <= 12, "\(name): a path of \(finding.steps.count) steps\n\(finding)")
            }
        }
        let many = try #require(Self.outcomes.first { $0.name.hasPrefix("a dismissed feed screen subscribed") && $0.name.contains("capturing itself") }?.outcome)
        #expect(many.findings.map(\.count) == [FeedScreen.count], "\(many.findings)")
    }

    @Test("A leak proven on the heap marks the reference to cut, and only that step")
    func suspectStepIsMarked() throws {
        for (name, outcome) in Self.outcomes {
            for finding in outcome.findings where [.selfCapturedObserver, .retainCycle].contains(finding.rule) {
                let suspects = finding.steps.filter { $0.mark == .suspect }
                #expect(!suspects.isEmpty, "\(name): no suspect step\n\(finding)")
                #expect(finding.steps.filter { $0.mark == .expected }.count + suspects.count
                    == finding.steps.filter { !$0.references.isEmpty }.count, "\(name): a link without a mark\n\(finding)")
            }
        }
        // A stored back-reference: the suspect step is the property to make weak, not the
        // navigation controller's stack that holds the screens.
        let stack = try #require(Self.outcomes.first { $0.name == "network models holding the root navigation controller made at launch" }?.outcome)
        let finding = try #require(stack.findings.first)
        let suspect = finding.steps.filter { $0.mark == .suspect }.map(\.description)
        #expect(suspect.count == 1 && suspect[0].hasPrefix("NetworkModel.navigation holds"), "\(finding)")
        // A self-capture: the observer's capture of the view model.
        let observer = try #require(Self.outcomes.first { $0.name == "RACObserve capturing self" }?.outcome.findings.first)
        #expect(observer.steps.filter { $0.mark == .suspect }.map(\.description).allSatisfy { $0.hasSuffix("which captures SearchViewModel") },
                "\(observer)")
    }

    @Test("Every rule has a leaky scenario in the corpus")
    func everyRuleIsExercised() {
        let exercised = Set(Self.outcomes.flatMap { $0.outcome.expected.map(\.rule) })
        #expect(exercised == Set(RuleID.allCases))
    }
}
