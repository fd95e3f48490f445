extension TraceEvent {
    /// The event's kind as reports and exports name it (`subscribe`, `next`, `alive`, ...).
    public var name: String {
        switch self {
        case .node: "node"
        case .nodeNamed: "node-named"
        case .edge: "edge"
        case .subscribe: "subscribe"
        case .observerStored: "observer-stored"
        case .observerReleased: "observer-released"
        case .next: "next"
        case .error: "error"
        case .completed: "completed"
        case .disposed: "disposed"
        case .violation: "violation"
        case .end: "end"
        case .snapshot: "snapshot"
        case .nodeAlive, .subscriptionAlive: "alive"
        case .heapObject: "heap-object"
        case .reference: "reference"
        case .virtualTime: "virtual-time"
        case .typeSite: "type-site"
        case .extended(let event): event.payload.name
        }
    }
}
