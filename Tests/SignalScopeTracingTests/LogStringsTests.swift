import Testing

@testable import SignalScopeTracing

/// A log's strings as records name them: cut to what a reader keeps, whole where a stack is
/// wanted, and the cut said only once a cut string is used.
@Suite("A log's strings", .timeLimit(.minutes(10)))
struct LogStringsTests {
    @Test("A long string reads cut, and whole as stored; the cut is said only when a record uses it")
    func cutWhenUsed() {
        let strings = LogStrings()
        let long = String(repeating: "é", count: EventLogFormat.stringReadLimit + 10)
        strings.define(1, as: "map")
        strings.define(2, as: long)
        #expect(strings.string(1) == "map")
        #expect(strings.optional(0) == nil)
        #expect(strings.string(3) == "?")
        #expect(!strings.wereCut)
        #expect(strings.whole(2) == long)
        #expect(!strings.wereCut)
        let cut = strings.string(2)
        #expect(cut.unicodeScalars.count == EventLogFormat.stringReadLimit)
        #expect(cut.hasSuffix("…"))
        #expect(strings.wereCut)
    }

    @Test("A string defined again, and one far beyond the others, read back as defined last")
    func redefinedAndFar() {
        let strings = LogStrings()
        strings.define(.max, as: "far")
        strings.define(5, as: String(repeating: "x", count: EventLogFormat.stringReadLimit + 1))
        strings.define(5, as: "short")
        #expect(strings.string(.max) == "far")
        #expect(strings.string(5) == "short")
        #expect(!strings.wereCut)
    }
}
