@testable import SignalScopeAnalysis
import Testing

@Suite("Rules", .timeLimit(.minutes(10)))
struct RuleRegistryTests {
    @Test("Every rule id has exactly one analyzer, which gives its severity and a one-sentence summary")
    func everyRuleHasItsAnalyzer() {
        let rules = Analyzers.standard.map { type(of: $0).rule }
        #expect(rules.sorted { $0.rawValue < $1.rawValue } == RuleID.allCases.sorted { $0.rawValue < $1.rawValue })
        for rule in RuleID.allCases {
            #expect(rule.summary.hasSuffix(".") && !rule.summary.dropLast().contains(". "), "\(rule): one sentence")
            #expect(rule.summary.range(of: #"\d"#, options: .regularExpression) == nil)
        }
    }
}
