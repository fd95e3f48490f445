import SignalScope

// The snapshot's heap records: each layout written once, for the recorder and the reader
// (docs/event-log.md is their specification).

/// `snapshot` (kind 16): `u64 objectLimit, u64 depthLimit, u8 flags, u8[3] 0,
/// u32 unwalkedReason` (flags bit 0: the object limit was reached, bit 1: the depth limit
/// was, bit 2: memory could not be read, bit 3: the walk started from every object allocated
/// while recording; `unwalkedReason`, a string id, 0 when a walk was made: why none was).
struct SnapshotRecord {
    static let size = 24

    var limits: TraceHeap.Limits
    var objectLimitReached: Bool
    var depthLimitReached: Bool
    var memoryUnreadable: Bool
    var usedAllocationTable: Bool
    var unwalkedReason: UInt32

    func encode(into payload: UnsafeMutableRawPointer) {
        payload.storeBytes(of: UInt64(limits.objects).littleEndian, as: UInt64.self)
        payload.storeBytes(of: UInt64(limits.depth).littleEndian, toByteOffset: 8, as: UInt64.self)
        let flags: UInt8 = (objectLimitReached ? 1 : 0) | (depthLimitReached ? 2 : 0) | (memoryUnreadable ? 4 : 0)
            | (usedAllocationTable ? 8 : 0)
        payload.storeBytes(of: flags, toByteOffset: 16, as: UInt8.self)
        payload.storeBytes(of: unwalkedReason.littleEndian, toByteOffset: 20, as: UInt32.self)
    }

    init?(_ payload: PayloadReader) {
        guard payload.count >= Self.size else { return nil }
        limits = TraceHeap.Limits(objects: payload.int(0), depth: payload.int(8))
        objectLimitReached = payload.u8(16) & 1 != 0
        depthLimitReached = payload.u8(16) & 2 != 0
        memoryUnreadable = payload.u8(16) & 4 != 0
        usedAllocationTable = payload.u8(16) & 8 != 0
        unwalkedReason = payload.u32(20)
    }

    init(
        limits: TraceHeap.Limits, objectLimitReached: Bool, depthLimitReached: Bool, memoryUnreadable: Bool,
        usedAllocationTable: Bool, unwalkedReason: UInt32
    ) {
        self.limits = limits
        self.objectLimitReached = objectLimitReached
        self.depthLimitReached = depthLimitReached
        self.memoryUnreadable = memoryUnreadable
        self.usedAllocationTable = usedAllocationTable
        self.unwalkedReason = unwalkedReason
    }
}

/// `heapObject` (kind 19): `u64 object, u64 hiddenAddress, u32 typeName, u8 category,
/// u8 exploration, u8 entityKind, u8 allocation, u64 retainCount, u64 entityID,
/// u64 allocationOrder` (allocation: 0 before recording started or not known, 1 while
/// recording, by code the recording does not watch, 2 by the recorded code; allocation order:
/// the object's rank among the snapshot's objects by when they were allocated, from 1, 0 when
/// not known). The address is stored xor-ed with ``addressKey``, so that a log held in memory (a test's recording, a thread's buffer) is never taken for
/// what keeps the objects it names alive by a tool that scans memory for pointers
/// (LeakSanitizer).
struct HeapObjectRecord {
    static let addressKey: UInt64 = 0xFFFF_0000_0000_0000

    static let size = 48

    var object: UInt64
    var address: UInt64
    var typeName: UInt32
    var category: UInt8
    var exploration: UInt8
    /// 0 none, 1 node, 2 subscription, 3 a subscription's disposable, 4 command, 5 scheduled action.
    var entityKind: UInt8
    var allocation: UInt8
    var retainCount: UInt64
    /// The node or subscription id; for a scheduled action, its subscription's (0: none).
    var entityID: UInt64
    var allocationOrder: UInt64

    func encode(into payload: UnsafeMutableRawPointer) {
        payload.storeBytes(of: object.littleEndian, as: UInt64.self)
        payload.storeBytes(of: (address ^ Self.addressKey).littleEndian, toByteOffset: 8, as: UInt64.self)
        payload.storeBytes(of: typeName.littleEndian, toByteOffset: 16, as: UInt32.self)
        payload.storeBytes(of: category, toByteOffset: 20, as: UInt8.self)
        payload.storeBytes(of: exploration, toByteOffset: 21, as: UInt8.self)
        payload.storeBytes(of: entityKind, toByteOffset: 22, as: UInt8.self)
        payload.storeBytes(of: allocation, toByteOffset: 23, as: UInt8.self)
        payload.storeBytes(of: retainCount.littleEndian, toByteOffset: 24, as: UInt64.self)
        payload.storeBytes(of: entityID.littleEndian, toByteOffset: 32, as: UInt64.self)
        payload.storeBytes(of: allocationOrder.littleEndian, toByteOffset: 40, as: UInt64.self)
    }

    init(
        object: UInt64, address: UInt64, typeName: UInt32, category: UInt8, exploration: UInt8, entity: TraceHeap.Entity?,
        retainCount: UInt64, allocation: TraceHeap.Allocation, allocationOrder: UInt64
    ) {
        self.allocation = allocation.rawValue
        self.allocationOrder = allocationOrder
        self.object = object
        self.address = address
        self.typeName = typeName
        self.category = category
        self.exploration = exploration
        self.retainCount = retainCount
        switch entity {
        case nil: (entityKind, entityID) = (0, 0)
        case .node(let id): (entityKind, entityID) = (1, id.rawValue)
        case .subscription(let id): (entityKind, entityID) = (2, id.rawValue)
        case .disposable(let id): (entityKind, entityID) = (3, id.rawValue)
        case .command: (entityKind, entityID) = (4, 0)
        case .scheduledAction(let id): (entityKind, entityID) = (5, id?.rawValue ?? 0)
        }
    }

    init?(_ payload: PayloadReader) {
        guard payload.count >= Self.size else { return nil }
        object = payload.u64(0)
        address = payload.u64(8) ^ Self.addressKey
        typeName = payload.u32(16)
        category = payload.u8(20)
        exploration = payload.u8(21)
        entityKind = payload.u8(22)
        allocation = payload.u8(23)
        retainCount = payload.u64(24)
        entityID = payload.u64(32)
        allocationOrder = payload.u64(40)
    }

    func decoded(strings: (UInt32) -> String) -> TraceHeap.Object? {
        guard let category = TraceHeap.Category(rawValue: category), let exploration = TraceHeap.Exploration(rawValue: exploration),
            let allocation = TraceHeap.Allocation(rawValue: allocation)
        else { return nil }
        let entity: TraceHeap.Entity?
        switch entityKind {
        case 0: entity = nil
        case 1: entity = .node(NodeID(rawValue: entityID))
        case 2: entity = .subscription(SubscriptionID(rawValue: entityID))
        case 3: entity = .disposable(SubscriptionID(rawValue: entityID))
        case 4: entity = .command
        case 5: entity = .scheduledAction(entityID == 0 ? nil : SubscriptionID(rawValue: entityID))
        default: return nil
        }
        return TraceHeap.Object(
            id: ObjectID(rawValue: object), typeName: strings(typeName), address: address, category: category,
            retainCount: Int(clamping: retainCount), exploration: exploration, entity: entity, allocation: allocation,
            allocationOrder: allocationOrder == 0 ? nil : Int(clamping: allocationOrder))
    }
}

/// `reference` (kind 20): `u64 from, u64 to, u8 kind, u8 flags, u16 0, u32 path, u32 offset,
/// u32 element, u32 closureRole, u32 closureFile, u32 closureLine, u32 closureName`.
struct ReferenceRecord {
    static let size = 48
    static let none = UInt32.max

    var from: UInt64
    var to: UInt64
    /// 0 stored property, 1 capture, 2 element, 3 dictionary key, 4 dictionary value, 5 boxed value.
    var kind: UInt8
    /// Bit 0: found by a conservative scan; bit 1: a weak reference; bit 2: a closure's
    /// context (the reference is a closure's, named or not).
    var flags: UInt8
    var path: UInt32
    /// `none` when the word is not stored in the holder as such.
    var offset: UInt32
    /// An element's index; a dictionary value's key (a string id, 0: unknown).
    var element: UInt32
    /// String ids, 0 when not known; `closureLine` 0 when not known.
    var closureRole: UInt32
    var closureFile: UInt32
    var closureLine: UInt32
    var closureName: UInt32

    func encode(into payload: UnsafeMutableRawPointer) {
        payload.storeBytes(of: from.littleEndian, as: UInt64.self)
        payload.storeBytes(of: to.littleEndian, toByteOffset: 8, as: UInt64.self)
        payload.storeBytes(of: kind, toByteOffset: 16, as: UInt8.self)
        payload.storeBytes(of: flags, toByteOffset: 17, as: UInt8.self)
        for (index, field) in [path, offset, element, closureRole, closureFile, closureLine, closureName].enumerated() {
            payload.storeBytes(of: field.littleEndian, toByteOffset: 20 + 4 * index, as: UInt32.self)
        }
    }
}

extension ReferenceRecord {
    init?(_ payload: PayloadReader) {
        guard payload.count >= Self.size else { return nil }
        self.init(
            from: payload.u64(0), to: payload.u64(8), kind: payload.u8(16), flags: payload.u8(17), path: payload.u32(20),
            offset: payload.u32(24), element: payload.u32(28), closureRole: payload.u32(32), closureFile: payload.u32(36),
            closureLine: payload.u32(40), closureName: payload.u32(44))
    }

    func decoded(strings: (UInt32) -> String) -> TraceHeap.Reference? {
        let referenceKind: TraceHeap.ReferenceKind
        switch kind {
        case 0: referenceKind = .storedProperty
        case 1: referenceKind = .capture
        case 2: referenceKind = .element(Int(element))
        case 3: referenceKind = .key
        case 4: referenceKind = .value(forKey: element == 0 ? nil : strings(element))
        case 5: referenceKind = .boxedValue
        default: return nil
        }
        let closure: TraceHeap.Closure? =
            flags & 4 == 0
            ? nil
            : TraceHeap.Closure(
                role: closureRole == 0 ? nil : strings(closureRole),
                site: closureFile == 0
                    ? nil : TraceSite(file: strings(closureFile), line: Int(closureLine), function: closureName == 0 ? "?" : strings(closureName)),
                name: closureRole == 0 && closureName != 0 ? strings(closureName) : nil)
        return TraceHeap.Reference(
            from: ObjectID(rawValue: from), to: ObjectID(rawValue: to), kind: referenceKind, path: strings(path),
            offset: offset == Self.none ? nil : Int(offset), closure: closure, isExact: flags & 1 == 0, isWeak: flags & 2 != 0)
    }
}

/// Reads a record's payload; the caller checks its size first.
struct PayloadReader {
    let bytes: UnsafeRawBufferPointer
    let start: Int
    let count: Int

    func u8(_ offset: Int) -> UInt8 { bytes[start + offset] }
    func u32(_ offset: Int) -> UInt32 { bytes.u32(start + offset) }
    func u64(_ offset: Int) -> UInt64 { bytes.u64(start + offset) }
    /// A 64-bit count as an `Int`, saturating.
    func int(_ offset: Int) -> Int { Int(clamping: u64(offset)) }
}
