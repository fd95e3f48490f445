import SignalScope

/// `node` (kind 2): a signal, subject, property, operator, ... was made.
struct NodeRecord: EventRecord {
    static let kind: UInt8 = 2
    static let name = "node"

    var node: UInt64 = 0
    var nodeKind: UInt8 = 0
    var traits: UInt8 = 0
    var name: UInt32 = 0
    var file: UInt32 = 0
    var function: UInt32 = 0
    var line: UInt32 = 0
    var parents: [Parent] = []

    struct Parent: RecordFields {
        var parent: UInt64 = 0
        var edgeKind: UInt8 = 0

        @inline(__always) mutating func fields(_ visitor: inout some RecordFieldVisitor) {
            visitor.visit(&parent, "parent")
            visitor.visit(&edgeKind, "edgeKind")
            visitor.zeros(7)
        }
    }

    @inline(__always) mutating func fields(_ visitor: inout some RecordFieldVisitor) {
        visitor.visit(&node, "node")
        visitor.visit(&nodeKind, "nodeKind")
        visitor.visit(&traits, "traits")
        visitor.zeros(2)
        visitor.visit(&name, "name")
        visitor.visit(&file, "file")
        visitor.visit(&function, "function")
        visitor.visit(&line, "line")
        visitor.list(&parents, "parentCount", each: "parent")
    }

    func event(strings: LogStrings) -> TraceEvent? {
        guard let kind = NodeKind(code: nodeKind) else { return nil }
        var edges: [NodeEdge] = []
        for parent in parents {
            guard let edge = EdgeKind(code: parent.edgeKind) else { return nil }
            edges.append(NodeEdge(parent: NodeID(rawValue: parent.parent), kind: edge))
        }
        return .node(
            NodeID(rawValue: node), kind: kind, name: strings.string(name),
            site: strings.site(file: file, function: function, line: line), parents: edges, traits: NodeTraits(rawValue: traits))
    }
}
