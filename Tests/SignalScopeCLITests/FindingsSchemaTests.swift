import Foundation
import Testing

/// `check --format json` against its documented schema (docs/findings.schema.json), with
/// jsonschema for Python: reports with findings of every kind, hostile text, limitations,
/// and the example in docs/cli.md.
@Suite("The JSON findings' schema", .timeLimit(.minutes(10)))
struct FindingsSchemaTests {
    @Test("Reports of planted leaks, of hostile strings and of an incomplete analysis, and the documented example, validate against the schema")
    func reportsValidate() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        let record = try cli.signalscope(["record", "-o", "planted.sslog", "--", CLIRunner.product("PlantedLeaks")])
        #expect(record.status == 0, "\(record.standardError)")
        try HostileStringTests.hostileTrace().write(to: cli.path("hostile.sslog"))
        // Cut off before its closing snapshot: its analysis is incomplete.
        var cut = CraftedLog()
        cut.node(1)
        cut.subscribe(1, to: 1)
        try cut.write(to: cli.path("cut.sslog"))
        for trace in ["planted", "hostile", "cut"] {
            let result = try cli.signalscope(
                ["check", "\(trace).sslog", "--fail-on", "never", "--allow-incomplete", "--format", "json=\(trace).json"])
            #expect(result.status == 0, "\(trace): \(result.standardError)")
        }
        let planted = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: cli.path("planted.json")))) as? [String: Any])
        #expect((planted["findings"] as? [Any])?.isEmpty == false)
        let cutReport = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: cli.path("cut.json")))) as? [String: Any])
        #expect((cutReport["limitations"] as? [Any])?.isEmpty == false)
        let repository = CLIRunner.repository
        let result = try cli.run("/usr/bin/env", [
            "python3", repository.appendingPathComponent("Tests/Export/validate_json.py").path,
            repository.appendingPathComponent("docs/findings.schema.json").path,
            cli.path("planted.json"), cli.path("hostile.json"), cli.path("cut.json"), repository.appendingPathComponent("docs/cli.md").path,
        ])
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
    }
}
