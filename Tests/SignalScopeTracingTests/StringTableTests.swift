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
