import Foundation
import SignalScope
@testable import SignalScopeTracing

/// Writes an event log record by record through the format's own record types, with any
/// field values, so that tests can hand the tool what no recorder writes: huge ids, clocks
/// that go back, hostile text, logs cut anywhere. (The record types' layouts are checked
/// against docs/event-log.md by EventLogDocumentTests.)
struct CraftedLog {
    private(set) var bytes: [UInt8] = EventLogFormat.header()
    private var sequence: UInt64 = 1
    private var strings: [String: UInt32] = [:]

    mutating func node(
        _ id: UInt64, name: String = "subject", file: String = "App/Main.swift", function: String = "main()",
        line: UInt32 = 3, kind: UInt8 = 0, traits: UInt8 = 0, parents: [UInt64] = []
    ) {
        let ids = (string(name), string(file), string(function))
        record(
            NodeRecord(
                node: id, nodeKind: kind, traits: traits, name: ids.0, file: ids.1, function: ids.2, line: line,
                parents: parents.map { NodeRecord.Parent(parent: $0) }))
    }

    mutating func named(_ node: UInt64, _ name: String) { record(NodeNamedRecord(node: node, name: string(name))) }

    mutating func edge(to node: UInt64, from parent: UInt64) { record(EdgeRecord(node: node, parent: parent)) }

    mutating func subscribe(
        _ id: UInt64, to node: UInt64, parent: UInt64 = 0, file: String = "App/Main.swift", function: String = "main()",
        line: UInt32 = 5, bindingTarget: UInt64 = 0, timestamp: UInt64? = nil
    ) {
        let ids = (string(file), string(function))
        record(
            SubscribeRecord(
                subscription: id, node: node, parentSubscription: parent, file: ids.0, function: ids.1, line: line,
                bindingTarget: bindingTarget),
            timestamp: timestamp)
    }

    /// The subscription keeps its observer; `handlers` bit 0 next, 1 error, 2 completed.
    mutating func observerStored(_ subscription: UInt64, handlers: UInt8 = 7) { record(ObserverStoredRecord(subscription: subscription, handlers: handlers)) }

    /// A value; `inCreationBlock`: sent by the signal's own work (its creation block).
    mutating func next(_ subscription: UInt64, _ value: String, timestamp: UInt64? = nil, inCreationBlock: Bool = false) {
        record(NextRecord(subscription: subscription, summary: value), timestamp: timestamp, causeKind: inCreationBlock ? 0x80 : 0)
    }

    mutating func error(_ subscription: UInt64, _ description: String) {
        record(ErrorRecord(subscription: subscription, description: description))
    }

    mutating func disposed(_ subscription: UInt64, cause: DisposalCause = .explicit) {
        record(DisposedRecord(subscription: subscription, cause: cause.rawValue))
    }

    mutating func violation(node: UInt64, stack: String, file: String, function: String, line: UInt32) {
        let ids = (string(stack), string(file), string(function))
        record(ViolationRecord(node: node, stack: ids.0, file: ids.1, function: ids.2, line: line))
    }

    /// The closing snapshot, with the heap walk's budgets and flags (bit 2: memory unreadable;
    /// bit 3, set by default as a recorder does: the walk started from every object allocated
    /// while recording).
    mutating func snapshot(flags: UInt8 = 8) {
        var snapshot = SnapshotRecord()
        (snapshot.objectLimit, snapshot.depthLimit, snapshot.flags) = (200_000, 10_000, flags)
        record(snapshot)
    }

    /// In the snapshot, an object the heap walk reached: by default a user object (category
    /// 0) allocated by the recorded code (allocation 2); a runtime entity (category 1) names
    /// its kind (2 subscription, 3 its disposable) and id. The address is stored xor-ed with
    /// the format's key.
    mutating func heapObject(
        _ id: UInt64, typeName: String, retainCount: UInt64 = 1, category: UInt8 = 0, entityKind: UInt8 = 0, entityID: UInt64 = 0,
        allocation: UInt8 = 2
    ) {
        var object = HeapObjectRecord()
        (object.object, object.hiddenAddress, object.typeName) = (id, UInt64(0x1000 + id * 16) ^ HeapObjectRecord.addressKey, string(typeName))
        (object.category, object.entityKind, object.allocation) = (category, entityKind, allocation)
        (object.retainCount, object.entityID) = (retainCount, entityID)
        record(object)
    }

    /// In the snapshot, a strong reference held in a stored property.
    mutating func reference(from: UInt64, to: UInt64, path: String) {
        record(ReferenceRecord(from: from, to: to, path: string(path), offset: ReferenceRecord.none))
    }

    /// In the snapshot, a strong reference a closure the runtime keeps captures (`role`: `next
    /// closure`, `transform`, ...), the closure's context being the holder itself.
    mutating func capture(from: UInt64, to: UInt64, role: String) {
        let ids = (string(""), string(role))
        record(ReferenceRecord(from: from, to: to, referenceKind: 1, flags: 4, path: ids.0, offset: ReferenceRecord.none, closureRole: ids.1))
    }

    /// What an `alive` record is about.
    enum Entity { case node, subscription }

    mutating func alive(_ entity: Entity, _ id: UInt64, retainCount: UInt64) {
        let code: LiveEntityCode = entity == .node ? .node : .subscription
        record(AliveRecord(entity: code.rawValue, id: id, retainCount: retainCount))
    }

    mutating func end() { record(EndRecord(recordCount: sequence)) }

    func write(to path: String) throws { try Data(bytes).write(to: URL(fileURLWithPath: path)) }

    private mutating func string(_ text: String) -> UInt32 {
        if let id = strings[text] { return id }
        let id = UInt32(strings.count + 1)
        strings[text] = id
        record(StringRecord(id: id, text: text))
        return id
    }

    private mutating func record<Record: EventRecord>(_ record: Record, timestamp: UInt64? = nil, causeKind: UInt8 = 0) {
        let size = EventLogFormat.aligned(EventLogFormat.prefixSize + record.payloadSize)
        let prefix = RecordPrefix(
            size: UInt32(size), kind: Record.kind, causeKind: causeKind, thread: 1, sequence: sequence,
            timestamp: timestamp ?? 1_000_000 + sequence * 1_000)
        var written = [UInt8](repeating: 0, count: size)
        written.withUnsafeMutableBytes { buffer in
            prefix.write(to: buffer.baseAddress!)
            record.write(to: buffer.baseAddress! + EventLogFormat.prefixSize)
        }
        bytes += written
        sequence += 1
    }
}
