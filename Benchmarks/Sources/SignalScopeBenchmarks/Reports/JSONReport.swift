import Foundation

/// The results as `make bench-json` prints them:
/// `{"results": [{"scenario": ..., "variant": ..., "ns_per_op": ...}, ...], "targets": [...], "machine": {...}}`.
enum JSONReport {
    private struct Document: Encodable {
        let results: [Measurement]
        let targets: [Target]
        let machine: Machine
    }

    static func render(_ results: [Measurement], targets: [Target], machine: Machine) throws -> String {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(Document(results: results, targets: targets, machine: machine)), as: UTF8.self)
    }
}
