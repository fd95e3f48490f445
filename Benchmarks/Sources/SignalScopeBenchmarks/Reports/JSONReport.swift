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
        try encoded(Document(results: results, targets: targets, machine: machine))
    }

    /// A document as the benchmark prints JSON: snake-case keys, sorted, indented.
    static func encoded(_ document: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(document), as: UTF8.self)
    }
}
