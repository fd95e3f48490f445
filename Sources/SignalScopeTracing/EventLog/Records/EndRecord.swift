/// `end` (kind 13): the recording stopped cleanly after this many records.
struct EndRecord: EventRecord {
    static let kind: UInt8 = 13
    static let name = "end"

    var recordCount: UInt64 = 0

    @inline(__always) mutating func fields(_ visitor: inout some RecordFieldVisitor) {
        visitor.visit(&recordCount, "recordCount")
    }

    func event(strings: LogStrings) -> TraceEvent? { .end(recordCount: recordCount) }
}
