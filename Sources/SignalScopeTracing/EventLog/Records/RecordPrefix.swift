/// The 32 bytes every record starts with (docs/event-log.md, "Records").
struct RecordPrefix: RecordFields {
    /// The whole record's size, prefix and padding included.
    var size: UInt32 = 0
    var kind: UInt8 = 0
    /// A ``TraceCause/Kind`` code, 0 when no cause was recorded, with
    /// ``TraceCause/creationBlockFlag``.
    var causeKind: UInt8 = 0
    var thread: UInt32 = 0
    /// How many sequence numbers back the causing record is (0: none).
    var causeDistance: UInt32 = 0
    var sequence: UInt64 = 0
    /// Monotonic nanoseconds.
    var timestamp: UInt64 = 0

    @inline(__always) mutating func fields(_ visitor: inout some RecordFieldVisitor) {
        visitor.visit(&size, "size")
        visitor.visit(&kind, "kind")
        visitor.visit(&causeKind, "causeKind")
        visitor.zeros(2)
        visitor.visit(&thread, "thread")
        visitor.visit(&causeDistance, "cause")
        visitor.visit(&sequence, "sequence")
        visitor.visit(&timestamp, "timestamp")
    }

    /// The cause it names, if it names a valid one.
    var cause: TraceCause? {
        guard let kind = TraceCause.Kind(rawValue: causeKind & ~TraceCause.creationBlockFlag), causeDistance > 0, UInt64(causeDistance) <= sequence else { return nil }
        return TraceCause(sequence: sequence - UInt64(causeDistance), kind: kind)
    }

    /// Whether the record was written in a cold signal's creation block.
    var inCreationBlock: Bool { causeKind & TraceCause.creationBlockFlag != 0 }
}
