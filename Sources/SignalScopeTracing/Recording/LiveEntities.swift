import CTracingSupport
import SignalScopeCore
import Synchronization

/// What a recording holds weakly to start its closing heap walk from: every node, every
/// subscription, every other object the runtime said keeps closures (commands, scheduled
/// actions), and the user objects observers were found to capture; with the closures each
/// keeps, to name them in paths.
///
/// Touched when nodes and subscriptions are made and ended, never per event.
final class LiveEntities: Sendable {
    /// A snapshot `alive` record's entity code.
    enum Entity: UInt8 {
        case node = 0, subscription = 1, object = 2
    }

    private struct Node {
        let reference: WeakReference
        var closures: [KeptClosure] = []
    }

    private struct Subscription {
        let reference: WeakReference
        let address: UInt
        /// Its observer's closures, while it holds them.
        var closures: [KeptClosure] = []
    }

    private struct Owner {
        let reference: WeakReference
        let owner: ClosureOwner
        let closures: [KeptClosure]
    }

    private struct Tracked {
        var nodes: [NodeID: Node] = [:]
        var subscriptions: [SubscriptionID: Subscription] = [:]
        var subscriptionAddresses: [UInt: SubscriptionID] = [:]
        /// Commands and scheduled actions, by address.
        var owners: [UInt: Owner] = [:]
        var objects: [UInt: (id: UInt64, reference: WeakReference)] = [:]
        var nextObjectID: UInt64 = 1
        var pruneAt = 1024

        /// Forgets what has gone, so a long run does not accumulate it.
        mutating func pruneIfLarge() {
            guard nodes.count + objects.count + owners.count >= pruneAt else { return }
            nodes = nodes.filter { $0.value.reference.object != nil }
            objects = objects.filter { $0.value.reference.object != nil }
            owners = owners.filter { $0.value.reference.object != nil }
            pruneAt = max(1024, 2 * (nodes.count + objects.count + owners.count))
        }
    }

    private let tracked = Mutex(Tracked())

    /// Held by every recording while it holds momentary strong references to what it
    /// tracks, so that no recording reads retain counts while another inflates them.
    private static let momentaryReferences = Mutex(())

    func node(_ id: NodeID, _ object: AnyObject) {
        let reference = WeakReference(object)
        tracked.withLock { tracked in
            tracked.nodes[id] = Node(reference: reference)
            tracked.pruneIfLarge()
        }
    }

    func closuresKept(_ closures: [KeptClosure], by owner: ClosureOwner, object: AnyObject) {
        if case .node(let id) = owner {
            tracked.withLock { $0.nodes[id]?.closures += closures }
            return
        }
        let entry = Owner(reference: WeakReference(object), owner: owner, closures: closures)
        tracked.withLock { tracked in
            tracked.owners[address(of: object)] = entry
            tracked.pruneIfLarge()
        }
    }

    func subscription(_ id: SubscriptionID, _ object: AnyObject) {
        let reference = WeakReference(object)
        let address = address(of: object)
        tracked.withLock { tracked in
            tracked.subscriptions[id] = Subscription(reference: reference, address: address)
            tracked.subscriptionAddresses[address] = id
        }
    }

    /// Remembers a subscription's observer closures, to name them in the snapshot.
    func storedObserver(_ id: SubscriptionID, closures: [KeptClosure]) {
        tracked.withLock { $0.subscriptions[id]?.closures = closures }
    }

    func releasedObserver(_ id: SubscriptionID) {
        tracked.withLock { $0.subscriptions[id]?.closures = [] }
    }

    func ended(_ id: SubscriptionID) {
        tracked.withLock { tracked in
            guard let ended = tracked.subscriptions.removeValue(forKey: id) else { return }
            if tracked.subscriptionAddresses[ended.address] == id {
                tracked.subscriptionAddresses.removeValue(forKey: ended.address)
            }
        }
    }

    /// The live subscription whose object is at `address`, if any: observers that forward
    /// events capture their downstream subscription.
    func subscription(at address: UInt) -> SubscriptionID? {
        tracked.withLock { $0.subscriptionAddresses[address] }
    }

    /// The id of the object at `address`, and whether it is new. An address whose earlier
    /// object is gone gets a new id.
    func object(at address: UInt) -> (id: UInt64, isNew: Bool) {
        Self.momentaryReferences.withLock { _ in identify(address) }
    }

    private func identify(_ address: UInt) -> (id: UInt64, isNew: Bool) {
        let object = Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: address)!).takeUnretainedValue()
        return tracked.withLock { tracked in
            if let known = tracked.objects[address], known.reference.object === object { return (known.id, false) }
            let id = tracked.nextObjectID
            tracked.nextObjectID += 1
            tracked.objects[address] = (id, WeakReference(object))
            tracked.pruneIfLarge()
            return (id, true)
        }
    }

    /// Walks the heap from everything still alive and describes what it found: each object
    /// with its strong retain count (not counting the walk's own references), what runtime
    /// entity it is, and each strong reference, named.
    func snapshot(limits: HeapWalker.Limits) -> HeapSnapshot {
        Self.momentaryReferences.withLock { _ in takeSnapshot(limits: limits) }
    }

    private func takeSnapshot(limits: HeapWalker.Limits) -> HeapSnapshot {
        let tracked = tracked.withLock { $0 }
        // Strong references for the walk's duration: what is alive now stays so until the
        // walk has read it. The walk leaves them out of retain counts.
        var pinned: [AnyObject] = []
        var pins: [UInt: Int] = [:]
        var entities: [UInt: TraceHeap.Entity] = [:]
        var names: [ClosureKey: KeptClosure] = [:]
        func pin(_ object: AnyObject, as entity: TraceHeap.Entity?) -> UInt {
            let at = address(of: object)
            pinned.append(object)
            pins[at, default: 0] += 1
            if let entity { entities[at] = entity }
            return at
        }
        func name(_ closures: [KeptClosure]) {
            for closure in closures where closure.context != 0 { names[ClosureKey(closure), default: closure] = closure }
        }
        var nodes: [(NodeID, terminated: Bool, address: UInt)] = []
        for (id, node) in tracked.nodes.sorted(by: { $0.key < $1.key }) {
            guard let object = node.reference.object else { continue }
            nodes.append((id, (object as? any TracedNode)?.hasTerminated ?? false, pin(object, as: .node(id))))
            name(node.closures)
        }
        var subscriptions: [(SubscriptionID, address: UInt)] = []
        for (id, subscription) in tracked.subscriptions.sorted(by: { $0.key < $1.key }) {
            guard let object = subscription.reference.object else { continue }
            subscriptions.append((id, pin(object, as: .subscription(id))))
            if let disposable = (object as? any TracedSubscription)?.disposableObject {
                _ = pin(disposable, as: .disposable(id))
            }
            name(subscription.closures)
        }
        for owner in tracked.owners.values {
            guard let object = owner.reference.object else { continue }
            switch owner.owner {
            case .command: _ = pin(object, as: .command)
            case .scheduledAction(let subscription): _ = pin(object, as: .scheduledAction(subscription))
            case .node: continue
            }
            name(owner.closures)
        }
        var knownObjects: [UInt: UInt64] = [:]
        for known in tracked.objects.values {
            guard let object = known.reference.object else { continue }
            knownObjects[pin(object, as: nil)] = known.id
        }
        let walk = HeapWalker(limits: limits).walk(roots: Array(Set(pins.keys)).sorted(), pins: pins)
        var snapshot = HeapSnapshot(limits: limits, walk: walk)
        var nextObjectID = tracked.nextObjectID
        let ids = walk.vertices.map { vertex -> UInt64 in
            if let known = knownObjects[vertex.address] { return known }
            defer { nextObjectID += 1 }
            return nextObjectID
        }
        self.tracked.withLock { $0.nextObjectID = max($0.nextObjectID, nextObjectID) }
        snapshot.objects = walk.vertices.enumerated().map { index, vertex in
            HeapSnapshot.Object(id: ids[index], vertex: vertex, entity: entities[vertex.address])
        }
        let kept = walk.edges.map { edge in
            edge.reference.function.flatMap { names[ClosureKey(function: $0, context: edge.reference.target)] }
        }
        // The closures the runtime did not report, named from their symbols in one batch.
        let symbols = Symbols.closureNames(at: zip(walk.edges, kept).compactMap { edge, closure in
            closure == nil ? edge.reference.function : nil
        })
        snapshot.references = zip(walk.edges, kept).map { edge, closure in
            HeapSnapshot.Reference(
                from: ids[edge.from], to: ids[edge.to], found: edge.reference, closure: closure,
                symbol: closure == nil ? edge.reference.function.flatMap { symbols[$0] } : nil)
        }
        let retainCount = { (address: UInt) in walk.index[address].map { walk.vertices[$0].retainCount } }
        snapshot.nodes = nodes.compactMap { id, terminated, address in
            retainCount(address).map { (id, $0, terminated) }
        }
        snapshot.subscriptions = subscriptions.compactMap { id, address in retainCount(address).map { (id, $0) } }
        withExtendedLifetime(pinned) {}
        return snapshot
    }

    private func address(of object: AnyObject) -> UInt {
        UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
    }
}

/// Identifies a closure by its two words.
private struct ClosureKey: Hashable {
    let function: UInt
    let context: UInt

    init(function: UInt, context: UInt) {
        self.function = function
        self.context = context
    }

    init(_ closure: KeptClosure) {
        self.init(function: closure.function, context: closure.context)
    }
}

/// What a recording's closing heap walk found, ready to be written.
struct HeapSnapshot {
    struct Object {
        let id: UInt64
        let vertex: HeapWalker.Vertex
        let entity: TraceHeap.Entity?
    }

    struct Reference {
        let from: UInt64
        let to: UInt64
        let found: FoundReference
        /// The closure the reference is the context of, as the runtime named it.
        let closure: KeptClosure?
        /// For a closure the runtime did not name: its function's name.
        let symbol: String?
    }

    let limits: HeapWalker.Limits
    let objectLimitReached: Bool
    let depthLimitReached: Bool
    var objects: [Object] = []
    var references: [Reference] = []
    /// Live nodes: strong retain count, and for subjects whether they terminated.
    var nodes: [(NodeID, retainCount: Int, terminated: Bool)] = []
    /// Live subscriptions and their strong retain counts.
    var subscriptions: [(SubscriptionID, retainCount: Int)] = []

    init(limits: HeapWalker.Limits, walk: HeapWalker.Result) {
        self.limits = limits
        objectLimitReached = walk.objectLimitReached
        depthLimitReached = walk.depthLimitReached
    }
}

/// A weak reference that can sit behind a mutex.
struct WeakReference: @unchecked Sendable {
    weak var object: AnyObject?

    init(_ object: AnyObject) {
        self.object = object
    }
}
