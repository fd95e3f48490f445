/// Something a tracer can name as a node of the signal graph when it finds it stored in a
/// user object: a signal, or a property (through its signal).
package protocol TracedNode: AnyObject {
    var nodeID: NodeID { get }
}

extension Signal: TracedNode {
    package var nodeID: NodeID { id }
}

extension MutableProperty: TracedNode {
    package var nodeID: NodeID { signal.id }
}
