import SignalScope

/// `edge` (kind 4): a parent that appeared after the node was made.
struct EdgeRecord: EventRecord {
    static let kind: UInt8 = 4
    static let name = "edge"

    var node: UInt64 = 0
    var parent: UInt64 = 0
    var edgeKind: UInt8 = 0

    @inline(__always) mutating func fields(_ visitor: inout some RecordFieldVisitor) {
        visitor.visit(&node, "node")
        visitor.visit(&parent, "parent")
        visitor.visit(&edgeKind, "edgeKind")
    }

    func event(strings: LogStrings) -> TraceEvent? {
        guard let kind = EdgeKind(code: edgeKind) else { return nil }
        return .edge(NodeEdge(parent: NodeID(rawValue: parent), kind: kind), to: NodeID(rawValue: node))
    }
}
