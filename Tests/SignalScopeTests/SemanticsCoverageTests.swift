import Foundation
import Testing

/// Every rule in docs/semantics.md must be proven by a test that names it.
@Suite("docs/semantics.md coverage", .timeLimit(.minutes(10)))
struct SemanticsCoverageTests {
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Rule ids, as written in the document: `- **S1** ...`.
    private static func ruleIDs() throws -> [String] {
        let text = try String(contentsOf: root.appendingPathComponent("docs/semantics.md"), encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"^- \*\*([A-Z][A-Za-z]*[0-9]+)\*\*"#, options: .anchorsMatchLines)
        return pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).map {
            String(text[Range($0.range(at: 1), in: text)!])
        }
    }

    /// Every test file's path and source.
    private static func testFiles() throws -> [(path: String, source: String)] {
        let tests = root.appendingPathComponent("Tests")
        let files = FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        return try files.map { ($0.path, try String(contentsOf: $0, encoding: .utf8)) }
    }

    /// The source of every test file, concatenated.
    private static func testSources() throws -> String {
        try testFiles().map(\.source).joined(separator: "\n")
    }

    @Test("Every rule in docs/semantics.md has a test named after it")
    func everyRuleHasATest() throws {
        let rules = try Self.ruleIDs()
        #expect(rules.count >= 30, "the rule list could not be read: \(rules)")
        #expect(Set(rules).count == rules.count, "duplicate rule ids: \(rules)")
        let sources = try Self.testSources()
        let untested = rules.filter { !sources.contains("@Test(\"\($0): ") }
        #expect(untested.isEmpty, "rules with no test: \(untested)")
    }

    /// A test that hangs (a deadlock, a wait for a signal that never comes) must fail on its
    /// own rather than stall `make test` until CI's limit ends the whole run with no name.
    /// Ten minutes, not less: a test's clock runs from the moment the run starts it, also while
    /// it waits for a thread. The run starts every test at once, so an async test's
    /// continuation waits behind every test body queued before it: a 100 ms sleep in the
    /// tracer's suites ended after four and a half minutes locally and five on CI, while tests
    /// that wait for child processes held both of the pool's threads. A limit near the whole
    /// debug suite's length (five to six and a half minutes on two cores) fails tests that are only waiting.
    @Test("Every suite has a time limit of at least ten minutes")
    func everySuiteHasATimeLimit() throws {
        var unlimited: [String] = []
        for file in try Self.testFiles() {
            for line in file.source.split(separator: "\n") where line.trimmingCharacters(in: .whitespaces).hasPrefix("@Suite") {
                let minutes = line.firstRange(of: /\.timeLimit\(\.minutes\((\d+)\)\)/).flatMap { Int(line[$0].filter(\.isNumber)) }
                if (minutes ?? 0) < 10 { unlimited.append("\(file.path): \(line)") }
            }
        }
        #expect(unlimited.isEmpty, "suites without a time limit of ten minutes or more: \(unlimited)")
    }
}
