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

/// A subscription as a tracer sees it: the disposable that ends it, which user objects may
/// hold (the only way to end a subscription whose source never terminates).
package protocol TracedSubscription: AnyObject {
    var disposableObject: AnyObject { get }
}

extension Subscriber: TracedSubscription {
    package var disposableObject: AnyObject { disposable }
}
