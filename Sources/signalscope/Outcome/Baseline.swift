import Foundation
import SignalScopeTools

/// Findings a project has accepted for now, each with how many of it: `check --baseline`
/// reports them as baseline rather than failures while there are no more of them than
/// accepted, so that a gate can be switched on before every old leak is fixed, and the 100
/// cell bindings that leak today cannot silently become 200.
///
/// A finding is matched by its fingerprint (rule, file, function and subject, never a line
/// or a count), so that edits elsewhere in a file and moved code keep it; its count is the
/// sum of the counts of the findings with that fingerprint. Each entry keeps the rule, file
/// and message beside it for a reader.
struct Baseline: Codable {
    struct Entry: Codable, Hashable {
        let fingerprint: String
        let rule: String
        let file: String
        let message: String
        /// How many are accepted; `nil` in a baseline of version 2, which accepted any number.
        var count: Int?
    }

    var version = 3
    var findings: [Entry]

    /// The baseline that accepts `findings`, as many of each as there are.
    init(findings: [Finding]) {
        var entries: [Entry] = []
        var index: [String: Int] = [:]
        for finding in findings {
            if let at = index[finding.fingerprint] {
                entries[at].count = (entries[at].count ?? 0) + finding.count
            } else {
                index[finding.fingerprint] = entries.count
                entries.append(Entry(
                    fingerprint: finding.fingerprint, rule: finding.rule.rawValue, file: finding.location.file,
                    message: finding.message, count: finding.count))
            }
        }
        self.findings = entries
    }

    /// What the baseline makes of `findings`.
    struct Judgement {
        /// The fingerprints it accepts: no more of each than it holds.
        var accepted: Set<String> = []
        /// Lines for standard error: fingerprints with more than accepted (they fail), and
        /// with fewer, or none left (the baseline can be tightened).
        var notes: [String] = []
        /// The baseline tightened: each count lowered to what was found, what is gone
        /// dropped; never more accepted than before.
        var tightened: Baseline
    }

    func judge(_ found: [Finding]) -> Judgement {
        var totals: [String: (first: Finding, count: Int)] = [:]
        for finding in found {
            totals[finding.fingerprint] = (totals[finding.fingerprint]?.first ?? finding, (totals[finding.fingerprint]?.count ?? 0) + finding.count)
        }
        var judgement = Judgement(tightened: Baseline(findings: []))
        for entry in findings {
            guard let (first, count) = totals[entry.fingerprint] else {
                judgement.notes.append("no [\(entry.rule)] \(entry.message) (\(entry.file)) any more: the baseline can be tightened with --update-baseline")
                continue
            }
            var kept = entry
            let place = "[\(entry.rule)] at \(first.location)"
            switch entry.count {
            case nil:
                judgement.accepted.insert(entry.fingerprint)
                kept.count = count
            case let allowed? where count > allowed:
                judgement.notes.append("\(count - allowed) more \(place) than the baseline's \(allowed): all \(count) fail until there are no more than \(allowed)")
            case let allowed?:
                judgement.accepted.insert(entry.fingerprint)
                if count < allowed {
                    judgement.notes.append("\(allowed - count) fewer \(place) than the baseline's \(allowed): the baseline can be tightened with --update-baseline")
                    kept.count = count
                }
            }
            judgement.tightened.findings.append(kept)
        }
        return judgement
    }

    static func read(from path: String) throws -> Baseline {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIError("cannot read baseline \(path)")
        }
        do {
            struct Header: Decodable { let version: Int }
            let version = try JSONDecoder().decode(Header.self, from: data).version
            guard version == 2 || version == 3 else {
                throw CLIError("baseline \(path) has version \(version); this signalscope reads versions 2 and 3 (write it again with --write-baseline)")
            }
            let baseline = try JSONDecoder().decode(Baseline.self, from: data)
            if version == 3, let uncounted = baseline.findings.first(where: { $0.count == nil }) {
                throw CLIError("baseline \(path) has no count for [\(uncounted.rule)] \(uncounted.message) (\(uncounted.file)); version 3 counts every finding")
            }
            if version == 2 {
                // Version 2 had no counts: it accepts any number until it is written again.
                standardError("signalscope: warning: baseline \(path) has no counts (version 2), so it accepts any number of each finding; --update-baseline writes them")
            }
            return baseline
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
