import SignalScope

/// `checkpoint` (kind 26, format 3.3): the program marked a point of its run
/// (`Tracer.checkpoint`, a growth check's repetition ending), and what a heap snapshot taken
/// then found alive: the live nodes and subscriptions, and how many objects of each of the
/// program's classes. Facts only: whether anything grows is the analysis's to judge.
struct CheckpointRecord: EventRecord {
    static let kind: UInt8 = 26
    static let name = "checkpoint"

    var label: UInt32 = 0
    var file: UInt32 = 0
    var function: UInt32 = 0
    var line: UInt32 = 0
    /// Bit 0: the snapshot did not see the whole heap (it stopped at its budget, could not
    /// read memory, or could not be taken).
    var flags: UInt8 = 0
    var nodes: [Identifier] = []
    var subscriptions: [Identifier] = []
    var types: [TypeCount] = []

    /// A live node's or subscription's id.
    struct Identifier: RecordFields {
        var id: UInt64 = 0

        @inline(__always) mutating func fields(_ visitor: inout some RecordFieldVisitor) {
            visitor.visit(&id, "id")
        }
    }

    /// How many live objects of one of the program's classes the snapshot found.
    struct TypeCount: RecordFields {
        var typeName: UInt32 = 0
        var count: UInt32 = 0

        @inline(__always) mutating func fields(_ visitor: inout some RecordFieldVisitor) {
            visitor.visit(&typeName, "typeName")
            visitor.visit(&count, "count")
        }
    }

    @inline(__always) mutating func fields(_ visitor: inout some RecordFieldVisitor) {
        visitor.visit(&label, "label")
        visitor.visit(&file, "file")
        visitor.visit(&function, "function")
        visitor.visit(&line, "line")
        visitor.visit(&flags, "flags")
        visitor.zeros(3)
        visitor.list(&nodes, "nodeCount", each: "node")
        visitor.list(&subscriptions, "subscriptionCount", each: "subscription")
        visitor.list(&types, "typeCount", each: "type")
    }

    func event(strings: LogStrings) -> TraceEvent? {
        var objects: [String: Int] = [:]
        for type in types { objects[strings.string(type.typeName), default: 0] += Int(type.count) }
        return .extended(
            ExtendedEvent(
                Checkpoint(
                    label: strings.string(label), site: strings.site(file: file, function: function, line: line),
                    nodes: nodes.map { NodeID(rawValue: $0.id) }, subscriptions: subscriptions.map { SubscriptionID(rawValue: $0.id) },
                    objectsByType: objects, sawPartOfTheHeap: flags & 1 != 0)))
    }
}

/// A point of the run the program marked, and what was alive then: the `checkpoint`
/// record's event. The growth rule compares a series of them (same label, same site).
public struct Checkpoint: TraceEventPayload {
    /// What the program said the point is (`"screen closed"`).
    public let label: String
    /// Where it said so.
    public let site: TraceSite
    /// The nodes alive then.
    public let nodes: [NodeID]
    /// The subscriptions alive and not yet ended then.
    public let subscriptions: [SubscriptionID]
    /// How many live objects of each of the program's classes (by type name) the snapshot
    /// found: those made while recording, and those signals reach.
    public let objectsByType: [String: Int]
    /// Whether the snapshot did not see the whole heap: counts may be short.
    public let sawPartOfTheHeap: Bool

    public var name: String { "checkpoint" }
    public var exportedFields: [(key: String, value: String)] {
        [("label", label), ("site", site.description), ("nodes", "\(nodes.count)"), ("subscriptions", "\(subscriptions.count)"),
         ("objects", "\(objectsByType.values.reduce(0, +))")]
    }
}
