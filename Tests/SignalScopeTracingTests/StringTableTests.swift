import SignalScopeTools
@testable import SignalScopeTracing
import Testing

@Suite("String table", .timeLimit(.minutes(10)))
struct StringTableTests {
    @Test("Text made at run time is remembered up to the table's capacity, then forgotten")
    func boundedMemory() {
        let table = StringTable()
        #expect(table.id(of: "query 0").isNew)
        #expect(!table.id(of: "query 0").isNew, "remembered while the table has room")
        for index in 1..<StringTable.capacity { _ = table.id(of: "query \(index)") }
        #expect(!table.id(of: "query 0").isNew, "still remembered at capacity")
        _ = table.id(of: "one more")
        let again = table.id(of: "query 0")
        #expect(again.isNew, "forgotten once the table overflowed, so it is written again")
        #expect(again.id != table.id(of: "query 1").id)
    }

    @Test("An immortal string's words name its text: a literal and short text are found by them, text on the heap by its characters")
    func immortalStrings() {
        let long = "a literal long enough to be stored out of line"
        let built = String(repeating: "x", count: 40)
        let short = String(["m", "a", "p"])
        #expect(StringTable.immortalBits(of: long) != nil)
        #expect(StringTable.immortalBits(of: "map") != nil)
        #expect(StringTable.immortalBits(of: built) == nil, "made at run time on the heap: its storage may be reused")
        #expect(StringTable.immortalBits(of: short).map { $0 == StringTable.immortalBits(of: "map")! } == true)
        #expect(StringTable.immortalBits(of: "map").map { $0 != StringTable.immortalBits(of: "mat")! } == true)
        let table = StringTable()
        let map = table.id(of: "map")
        #expect(map.isNew)
        #expect(table.id(of: short) == (map.id, false))
        #expect(table.id(of: "map") == (map.id, false))
        let heap = table.id(of: built)
        #expect(heap.isNew && heap.id != map.id)
        #expect(table.id(of: String(repeating: "x", count: 40)) == (heap.id, false))
        #expect(table.id(of: long).id != map.id)
    }

    @Test("A thread finds again the ids it was given last, by a literal's address or an immortal string's words; a slot holds the last met")
    func threadStringIDs() throws {
        let ids = ThreadStringIDs()
        #expect(ids.literal(at: 0x1000) == nil)
        ids.remember(literalAt: 0x1000, id: 7)
        #expect(ids.literal(at: 0x1000) == 7)
        // 64 slots by the address's bits above its alignment: 0x1200 takes 0x1000's slot.
        ids.remember(literalAt: 0x1200, id: 8)
        #expect(ids.literal(at: 0x1200) == 8 && ids.literal(at: 0x1000) == nil)
        let map = try #require(StringTable.immortalBits(of: "map"))
        let filter = try #require(StringTable.immortalBits(of: "filter"))
        #expect(ids.text(map) == nil)
        ids.remember(text: map, id: 9)
        #expect(ids.text(map) == 9 && ids.text(filter) == nil)
    }

    @Test("Names met again after the table forgot them read back under their new ids")
    func repeatedStringsReadBack() throws {
        var subjects: [Subject<Int>] = []
        let trace = Tracer.record {
            for index in 0..<(StringTable.capacity + 100) { subjects.append(Subject<Int>().named("query \(index)")) }
            subjects.append(Subject<Int>().named("query 0"))
        }
        for (index, subject) in subjects.enumerated() {
            let name = index == subjects.count - 1 ? "query 0" : "query \(index)"
            #expect(trace.nodes[subject.id]?.userName == name)
        }
    }
}
