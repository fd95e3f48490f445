import SignalScopeHeap
/// `snapshot` (kind 16): the records up to the next `end` describe what was alive when
/// recording stopped, and how far the heap walk went.
struct SnapshotRecord: EventRecord {
    static let kind: UInt8 = 16
    static let name = "snapshot"

    var objectLimit: UInt64 = 0
    var depthLimit: UInt64 = 0
    /// Bit 0: the object limit was reached, bit 1: the depth limit was, bit 2: memory could
    /// not be read, bit 3: the walk started from every object allocated while recording.
    var flags: UInt8 = 0
    /// A string id, 0 when a walk was made: why none was.
    var unwalkedReason: UInt32 = 0

    @inline(__always) mutating func fields(_ visitor: inout some RecordFieldVisitor) {
        visitor.visit(&objectLimit, "objectLimit")
        visitor.visit(&depthLimit, "depthLimit")
        visitor.visit(&flags, "flags")
        visitor.zeros(3)
        visitor.visit(&unwalkedReason, "unwalkedReason")
    }

    init() {}

    init(
        limits: TraceHeap.Limits, objectLimitReached: Bool, depthLimitReached: Bool, memoryUnreadable: Bool,
        usedAllocationTable: Bool, unwalkedReason: UInt32
    ) {
        objectLimit = UInt64(limits.objects)
        depthLimit = UInt64(limits.depth)
        flags = (objectLimitReached ? 1 : 0) | (depthLimitReached ? 2 : 0) | (memoryUnreadable ? 4 : 0) | (usedAllocationTable ? 8 : 0)
        self.unwalkedReason = unwalkedReason
    }

    func event(strings: LogStrings) -> TraceEvent? {
        .snapshot(
            limits: TraceHeap.Limits(objects: Int(clamping: objectLimit), depth: Int(clamping: depthLimit)),
            objectLimitReached: flags & 1 != 0, depthLimitReached: flags & 2 != 0, memoryUnreadable: flags & 4 != 0,
            coversAllocations: flags & 8 != 0, unwalkedReason: strings.optional(unwalkedReason))
    }
}
