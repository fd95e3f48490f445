import Foundation
import Testing

/// The report page's script is a file of its own, whose logic Node's test runner checks
/// (`Tests/JavaScript/*.test.js`); this runs them with the Swift suites, so that `make test`
/// fails when they do.
@Suite("The report's script under Node", .timeLimit(.minutes(10)))
struct ReportScriptTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("Every JavaScript test passes under node --test")
    func javaScriptTestsPass() throws {
        let node = try #require(
            ["/usr/bin/node", "/usr/local/bin/node"].first { FileManager.default.isExecutableFile(atPath: $0) },
            "Node is missing: run scripts/setup.sh")
        let folder = Self.repository.appendingPathComponent("Tests/JavaScript")
        let tests = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".test.js") }.sorted().map { folder.appendingPathComponent($0).path }
        #expect(!tests.isEmpty)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: node)
        process.arguments = ["--test"] + tests
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains("# fail 0"), "\(text)")
    }
}
