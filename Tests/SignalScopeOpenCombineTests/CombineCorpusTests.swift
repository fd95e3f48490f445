#if OpenCombineAdapter
import Testing
import SignalScopeTools

/// The Combine corpus judged: for each scenario, ground truth by weak reference first, then
/// each leak found once, at the line where the fix goes, and nothing else; precision and
/// recall over the whole corpus printed. One test runs them all, so that the corpus is
/// recorded once.
@Suite("The Combine corpus", .timeLimit(.minutes(10)))
struct CombineCorpusTests {
    @Test("Every scenario: its ground truth, then exactly its findings; precision and recall printed")
    func corpus() {
        var (truePositives, falsePositives, falseNegatives) = (0, 0, 0)
        for scenario in CombineCorpus.scenarios {
            let outcome = scenario.run()
            #expect(outcome.survived == outcome.shouldSurvive, "\(outcome.name): ground truth")
            #expect(outcome.found == Set(outcome.expected), "\(outcome.name): \(outcome.findings)")
            #expect(outcome.findings.count == outcome.expected.count, "\(outcome.name): one leak, one finding: \(outcome.findings)")
            #expect(outcome.trace.analyze().limitations.isEmpty, "\(outcome.name): \(outcome.trace.analyze().limitations)")
            let expected = Set(outcome.expected)
            truePositives += outcome.found.intersection(expected).count
            falsePositives += outcome.found.subtracting(expected).count
            falseNegatives += expected.subtracting(outcome.found).count
        }
        let precision = Double(truePositives) / Double(max(truePositives + falsePositives, 1))
        let recall = Double(truePositives) / Double(max(truePositives + falseNegatives, 1))
        print(
            "Combine corpus: \(CombineCorpus.scenarios.count) scenarios, \(truePositives) leaks found, \(falsePositives) false findings, "
                + "\(falseNegatives) missed: precision \(precision), recall \(recall)")
        #expect(CombineCorpus.scenarios.count >= 20)
    }
}
#endif
