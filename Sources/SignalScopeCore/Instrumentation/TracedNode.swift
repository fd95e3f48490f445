/// Something a tracer can name as a node of the signal graph when it finds it stored in a
/// user object: a signal, or a property (through its signal).
package protocol TracedNode: AnyObject {
    var nodeID: NodeID { get }
    /// For a subject: whether it has sent its terminal event; `nil` for other nodes.
    var hasTerminated: Bool? { get }
}

extension Signal: TracedNode {
    package var nodeID: NodeID { id }
}

extension MutableProperty: TracedNode {
    package var nodeID: NodeID { signal.id }
    package var hasTerminated: Bool? { signal.hasTerminated }
}
