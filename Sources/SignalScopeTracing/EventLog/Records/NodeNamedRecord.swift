import SignalScope

/// `nodeNamed` (kind 3): the name given with `named(_:)`.
struct NodeNamedRecord: EventRecord {
    static let kind: UInt8 = 3
    static let name = "nodeNamed"

    var node: UInt64 = 0
    var name: UInt32 = 0

    @inline(__always) mutating func fields(_ visitor: inout some RecordFieldVisitor) {
        visitor.visit(&node, "node")
        visitor.visit(&name, "name")
    }

    func event(strings: LogStrings) -> TraceEvent? { .nodeNamed(NodeID(rawValue: node), name: strings.string(name)) }
}
