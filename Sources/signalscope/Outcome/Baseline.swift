import Foundation
import SignalScopeTools

/// Findings a project has accepted for now: `check --baseline` reports them as baseline
/// rather than failures, so that a gate can be switched on before every old leak is fixed.
///
/// A finding is matched by its fingerprint (rule, file, function and subject, never a line
/// or a count), so that edits elsewhere in a file, moved code and a different number of
/// repetitions keep it. Each entry keeps the rule, file and message beside it for a reader.
struct Baseline: Codable {
    struct Entry: Codable, Hashable {
        let fingerprint: String
        let rule: String
        let file: String
        let message: String

        init(_ finding: Finding) {
            fingerprint = finding.fingerprint
            rule = finding.rule.rawValue
            file = finding.location.file
            message = finding.message
        }
    }

    var version = 2
    var findings: [Entry]

    init(findings: [Finding]) {
        self.findings = findings.map(Entry.init)
    }

    /// The fingerprints of the accepted findings.
    var fingerprints: Set<String> { Set(findings.map(\.fingerprint)) }

    static func read(from path: String) throws -> Baseline {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIError("cannot read baseline \(path)")
        }
        do {
            struct Header: Decodable { let version: Int }
            let version = try JSONDecoder().decode(Header.self, from: data).version
            guard version == 2 else {
                throw CLIError("baseline \(path) has version \(version); this signalscope reads version 2 (write it again with --write-baseline)")
            }
            return try JSONDecoder().decode(Baseline.self, from: data)
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError("baseline \(path) is not a SignalScope baseline (expected JSON with \"version\" and \"findings\")")
        }
    }

    func write(to path: String, force: Bool) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try writeOutput(try encoder.encode(self), to: path, force: force)
    }
}
