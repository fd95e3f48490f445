import Testing

@testable import SignalScopeTracing

/// The table the reader keys by identifiers answers as a dictionary would, whether an
/// identifier lands in its array or beside it.
@Suite("Identifier table", .timeLimit(.minutes(10)))
struct IdentifierTableTests {
    @Test("Identifiers in order, out of order, below the first and far beyond read back as a dictionary's")
    func answersAsADictionary() {
        var table = IdentifierTable<Int>()
        var model: [UInt64: Int] = [:]
        func store(_ identifier: UInt64, _ value: Int?) {
            table[identifier] = value
            model[identifier] = value
        }
        // A recording that starts mid-process: its first identifier is large.
        for identifier in UInt64(5_000)..<5_100 { store(identifier, Int(identifier)) }
        // Below the first one stored, and far beyond: beside the array.
        store(7, 70)
        store(1 << 40, 1)
        store(.max, 2)
        // The array then grows over an identifier first stored beside it.
        store(20_000, 3)
        for identifier in UInt64(5_100)..<25_000 { store(identifier, Int(identifier) * 2) }
        // Removals, in the array and beside it, and stores again.
        for identifier in stride(from: UInt64(5_000), to: 25_000, by: 3) { store(identifier, nil) }
        store(7, nil)
        store(1 << 40, nil)
        store(5_001, -1)
        store(123_456_789, nil)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let identifier = UInt64.random(in: 0..<40_000, using: &generator)
            store(identifier, Bool.random(using: &generator) ? Int(identifier) : nil)
        }
        #expect(table.count == model.count)
        for identifier in Set(model.keys).union(0..<40_000).union([1 << 40, .max, 123_456_789]) {
            #expect(table[identifier] == model[identifier], "identifier \(identifier)")
        }
    }
}
