import Foundation
import SignalScopeTools

/// Findings a project has accepted for now: `check --baseline` reports them as baseline
/// rather than failures, so that a gate can be switched on before every old leak is fixed.
///
/// A finding is matched by rule, file, function and message, not by line, so that edits
/// elsewhere in a file do not invalidate the baseline.
struct Baseline: Codable {
    struct Entry: Codable, Hashable {
        let rule: String
        let file: String
        let function: String
        let message: String

        init(_ finding: Finding) {
            rule = finding.rule.rawValue
            file = finding.location.file
            function = finding.location.function
            message = finding.message
        }
    }

    var version = 1
    var findings: [Entry]

    init(findings: [Finding]) {
        self.findings = findings.map(Entry.init)
    }

    func contains(_ finding: Finding) -> Bool { findings.contains(Entry(finding)) }

    static func read(from path: String) throws -> Baseline {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIError("cannot read baseline \(path)")
        }
        do {
            let baseline = try JSONDecoder().decode(Baseline.self, from: data)
            guard baseline.version == 1 else {
                throw CLIError("baseline \(path) has version \(baseline.version); this signalscope reads version 1")
            }
            return baseline
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError("baseline \(path) is not a SignalScope baseline (expected JSON with \"version\" and \"findings\")")
        }
    }

    func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try writeOutput(try encoder.encode(self), to: path)
    }
}
