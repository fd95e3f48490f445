@testable import SignalScopeAnalysis
import Testing

@Suite("Rules", .timeLimit(.minutes(10)))
struct RuleRegistryTests {
    @Test("Every rule id has exactly one analyzer, which gives its severity and a one-sentence summary")
    func everyRuleHasItsAnalyzer() {
        let rules = Analyzers.standard.map { type(of: $0).rule }
        #expect(Set(rules).count == rules.count, "one analyzer per rule: \(rules)")
        #expect(Set(rules.map(\.rawValue)).count == rules.count, "ids are distinct")
        for rule in rules {
            #expect(RuleID(rawValue: rule.rawValue) == rule, "\(rule) is read back from its id")
        }
        #expect(RuleID(rawValue: "no-such-rule") == nil)
        for rule in RuleID.allCases {
            #expect(rule.summary.hasSuffix(".") && !rule.summary.dropLast().contains(". "), "\(rule): one sentence")
            #expect(rule.summary.range(of: #"\d"#, options: .regularExpression) == nil)
        }
    }
}
