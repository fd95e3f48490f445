import SignalScopeTools
@testable import SignalScopeTracing
import Testing

@Suite("Identified entries", .timeLimit(.minutes(10)))
struct IdentifiedEntriesTests {
    private final class Entry {
        let value: Int
        init(_ value: Int) { self.value = value }
    }

    private typealias Table = IdentifiedEntries<NodeID, Entry>
    private static let window = UInt64(Table.windowSize)

    private func id(_ raw: UInt64) -> NodeID { NodeID(rawValue: raw) }

    private func contents(_ table: Table) -> [UInt64] { table.sorted().map(\.id.rawValue) }

    /// The value of `raw`'s entry, reached as the live-entity table reaches one: through `update`.
    private func value(_ raw: UInt64, in table: inout Table) -> Int? {
        var found: Int?
        table.update(id(raw)) { found = $0.value }
        return found
    }

    @Test("Entries are found, replaced and removed, whether in the window, left behind by it or arriving after it moved on")
    func findReplaceRemove() {
        var table = Table()
        table.insert(Entry(1), for: id(5))
        table.insert(Entry(2), for: id(7))
        // Far enough on that 5 and 7 are left behind.
        table.insert(Entry(3), for: id(5 + 2 * Self.window))
        // Made on another thread before the window moved, reported after.
        table.insert(Entry(4), for: id(6))
        #expect(table.count == 4)
        #expect(value(5, in: &table) == 1 && value(7, in: &table) == 2 && value(6, in: &table) == 4)
        #expect(value(5 + 2 * Self.window, in: &table) == 3)
        #expect(value(8, in: &table) == nil && value(5 + 3 * Self.window, in: &table) == nil)
        table.insert(Entry(5), for: id(7))
        #expect(value(7, in: &table) == 5)
        #expect(table.count == 4)
        table.remove(id(7))
        table.remove(id(5 + 2 * Self.window))
        table.remove(id(123))
        #expect(value(7, in: &table) == nil && value(5 + 2 * Self.window, in: &table) == nil)
        #expect(contents(table) == [5, 6])
        #expect(table.count == 2)
    }

    @Test("An entry the window moves past keeps its place in the order, however far the window moves")
    func orderAcrossTheWindow() {
        var table = Table()
        var expected: [UInt64] = []
        var raw: UInt64 = 1
        // Steps smaller, equal to and larger than the window, so that it moves by some of
        // its slots, all of them, and past all of them.
        for step in [1, 3, Self.window - 1, Self.window, Self.window + 1, 7, 2 * Self.window + 5, 1] {
            raw += step
            table.insert(Entry(Int(raw)), for: id(raw))
            expected.append(raw)
        }
        #expect(contents(table) == expected)
        #expect(table.sorted().allSatisfy { UInt64($0.entry.value) == $0.id.rawValue })
        #expect(table.count == expected.count)
    }

    @Test("Removing by a condition reaches entries in the window and behind it")
    func removeAllWhere() {
        var table = Table()
        for raw in stride(from: UInt64(1), through: 3 * Self.window, by: 3) { table.insert(Entry(Int(raw)), for: id(raw)) }
        table.removeAll { $0.value % 2 == 0 }
        let left = contents(table)
        #expect(left == Array(stride(from: UInt64(1), through: 3 * Self.window, by: 6)))
        #expect(table.count == left.count)
        for raw in left { #expect(value(raw, in: &table) != nil) }
    }
}
