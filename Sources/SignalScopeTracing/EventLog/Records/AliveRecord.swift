import SignalScope

/// `alive` (kind 17): in the snapshot, an entity that was alive, with its retain count.
struct AliveRecord: EventRecord {
    static let kind: UInt8 = 17
    static let name = "alive"

    /// A ``LiveEntityCode``.
    var entity: UInt8 = 0
    /// Bit 0: a subject that has terminated.
    var flags: UInt8 = 0
    var id: UInt64 = 0
    var retainCount: UInt64 = 0

    @inline(__always) mutating func fields(_ visitor: inout some RecordFieldVisitor) {
        visitor.visit(&entity, "entity")
        visitor.visit(&flags, "flags")
        visitor.zeros(6)
        visitor.visit(&id, "id")
        visitor.visit(&retainCount, "retainCount")
    }

    func event(strings: LogStrings) -> TraceEvent? {
        guard let alive = LiveEntityCode(rawValue: entity)?.entity(id) else { return nil }
        return .alive(alive, retainCount: Int(clamping: retainCount), terminated: flags & 1 != 0)
    }
}
