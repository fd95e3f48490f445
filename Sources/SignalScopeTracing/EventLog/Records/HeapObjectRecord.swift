import SignalScope

/// `heapObject` (kind 19): in the snapshot, an object the heap walk reached.
///
/// The address is stored xor-ed with ``addressKey``, so that a log held in memory (a test's
/// recording, a thread's buffer) is never taken for what keeps the objects it names alive
/// by a tool that scans memory for pointers (LeakSanitizer).
struct HeapObjectRecord: EventRecord {
    static let kind: UInt8 = 19
    static let name = "heapObject"
    static let addressKey: UInt64 = 0xFFFF_0000_0000_0000

    var object: UInt64 = 0
    var hiddenAddress: UInt64 = 0
    var typeName: UInt32 = 0
    /// A ``TraceHeap/Category``.
    var category: UInt8 = 0
    /// A ``TraceHeap/Exploration``.
    var exploration: UInt8 = 0
    /// 0 none, 1 node, 2 subscription, 3 a subscription's disposable, 4 command, 5 scheduled action.
    var entityKind: UInt8 = 0
    /// A ``TraceHeap/Allocation``.
    var allocation: UInt8 = 0
    var retainCount: UInt64 = 0
    /// The node or subscription id; for a scheduled action, its subscription's (0: none).
    var entityID: UInt64 = 0
    /// The object's rank among the snapshot's objects by when they were allocated, from 1;
    /// 0: not known.
    var allocationOrder: UInt64 = 0
    /// For a closure context, how many of its weak captures are of freed objects, and the
    /// class of the first whose class the walk knew (format 3.5).
    var freedWeakCaptures: UInt64 = 0
    /// A string, widened to the word an appended field is.
    var freedWeakReferent: UInt64 = 0

    @inline(__always) mutating func fields(_ visitor: inout some RecordFieldVisitor) {
        visitor.visit(&object, "object")
        visitor.visit(&hiddenAddress, "address")
        visitor.visit(&typeName, "typeName")
        visitor.visit(&category, "category")
        visitor.visit(&exploration, "exploration")
        visitor.visit(&entityKind, "entityKind")
        visitor.visit(&allocation, "allocation")
        visitor.visit(&retainCount, "retainCount")
        visitor.visit(&entityID, "entityID")
        visitor.visit(&allocationOrder, "allocationOrder")
        visitor.appended(&freedWeakCaptures, "freedWeakCaptures")
        visitor.appended(&freedWeakReferent, "freedWeakReferent")
    }

    init() {}

    init(
        object: UInt64, address: UInt64, typeName: UInt32, category: UInt8, exploration: UInt8, entity: TraceHeap.Role?,
        retainCount: UInt64, allocation: TraceHeap.Allocation, allocationOrder: UInt64, freedWeakCaptures: UInt64,
        freedWeakReferent: UInt32
    ) {
        self.object = object
        hiddenAddress = address ^ Self.addressKey
        self.typeName = typeName
        self.category = category
        self.exploration = exploration
        self.allocation = allocation.rawValue
        self.retainCount = retainCount
        self.allocationOrder = allocationOrder
        self.freedWeakCaptures = freedWeakCaptures
        self.freedWeakReferent = UInt64(freedWeakReferent)
        let (code, id) = entity?.code ?? (.none, 0)
        (entityKind, entityID) = (code.rawValue, id)
    }

    func event(strings: LogStrings) -> TraceEvent? {
        guard let category = TraceHeap.Category(rawValue: category), let exploration = TraceHeap.Exploration(rawValue: exploration),
            let allocation = TraceHeap.Allocation(rawValue: allocation)
        else { return nil }
        let (entity, isKnown) = TraceHeap.Role.decoded(entityKind, id: entityID)
        guard isKnown else { return nil }
        return .heapObject(
            TraceHeap.Object(
                id: ObjectID(rawValue: object), typeName: strings.string(typeName), address: hiddenAddress ^ Self.addressKey,
                category: category, retainCount: Int(clamping: retainCount), exploration: exploration, role: entity,
                allocation: allocation, allocationOrder: allocationOrder == 0 ? nil : Int(clamping: allocationOrder),
                freedWeakCaptures: Int(clamping: freedWeakCaptures),
                freedWeakReferent: freedWeakReferent == 0 ? nil : strings.string(UInt32(truncatingIfNeeded: freedWeakReferent))))
    }
}
