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
        switch LiveEntityCode(rawValue: entity) {
        case .node: .nodeAlive(NodeID(rawValue: id), retainCount: Int(clamping: retainCount), terminated: flags & 1 != 0)
        case .subscription: .subscriptionAlive(SubscriptionID(rawValue: id), retainCount: Int(clamping: retainCount))
        case nil: nil
        }
    }
}
