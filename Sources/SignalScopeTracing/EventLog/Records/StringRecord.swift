/// `string` (kind 1): a string later records refer to by id.
struct StringRecord: EventRecord {
    static let kind: UInt8 = 1
    static let name = "string"

    var id: UInt32 = 0
    var text = ""

    @inline(__always) mutating func fields(_ visitor: inout some RecordFieldVisitor) {
        visitor.visit(&id, "id")
        visitor.text(&text, "byteCount")
    }

    /// Strings are read in the reader's first pass, not visited as events.
    func event(strings: LogStrings) -> TraceEvent? { nil }
}
