import CTracingSupport
@_spi(Locking) import SignalScope
import Synchronization
import SignalScopeHeap

/// What a recording knows to start its closing heap walk from, without keeping any of it
/// alive: every node, every subscription (by address until its deinit is reported, rule I17,
/// or weakly), every other object the runtime said keeps closures (commands, scheduled
/// actions), weakly; with the closures each keeps, to name them in paths.
///
/// Touched when nodes and subscriptions are made and ended, never per event.
final class LiveEntities: Sendable {
    // A node's and a subscription's entries are values of plain words (an address, or an
    // object holding a weak reference; an array), kept in the table's slots and changed
    // there. Holding a weak reference inline, every insertion, in-place change and pruning
    // moved them through their value witnesses; as objects of their own, each entity cost
    // an allocation.

    /// A weak reference in an object of its own, so that what holds it moves as a word.
    private final class WeakBox: @unchecked Sendable {
        let reference: WeakReference

        init(_ object: AnyObject) { reference = WeakReference(object) }
    }

    /// How the table reaches an entity's object without keeping it alive.
    private enum Reach {
        /// A library's object, which does not report its deinit.
        case weakly(WeakBox)
        /// An object that reports its deinit (rule I17), whose entry leaves the table then:
        /// while its entry is in the table, under the table's lock, its memory is there.
        /// No weak reference, which would give it a side table (slowing every retain and
        /// release of it) and keep the entry until the table is next pruned.
        case untilDeinit(UnsafeMutableRawPointer)

        init(_ object: AnyObject, reportsDeinit: Bool) {
            self = reportsDeinit ? .untilDeinit(Unmanaged.passUnretained(object).toOpaque()) : .weakly(WeakBox(object))
        }

        /// Whether the object is gone, as far as pruning can tell: an object that reports its
        /// deinit is taken out of the table then, so it is never found gone here.
        var isGone: Bool {
            if case .weakly(let box) = self { box.reference.object == nil } else { false }
        }

        /// With the table's lock held: what the snapshot holds of the object (see ``Held``).
        func held() -> Held {
            switch self {
            case .weakly(let box): .weakly(box.reference)
            case .untilDeinit(let address): signalscope_try_retain(address) ? .retained(.fromOpaque(address)) : .gone
            }
        }
    }

    /// What a snapshot holds of an entity's object while the table's lock is held: its weak
    /// reference, the object itself retained (one that reports its deinit), or nothing, when
    /// its deinit has begun.
    private enum Held {
        case weakly(WeakReference)
        case retained(Unmanaged<AnyObject>)
        case gone

        /// Once the lock is let go, and once for each: the object's weak reference, if it is
        /// alive. A retained object is let go here, which may run its deinit, and that takes
        /// the lock.
        func reference() -> WeakReference? {
            switch self {
            case .weakly(let reference): reference
            case .retained(let object): WeakReference(object.takeRetainedValue())
            case .gone: nil
            }
        }
    }

    private struct Node {
        let reach: Reach
        var closures: [KeptClosure] = []
        /// It was sent its terminal event (``SignalInstrumentation/nodeTerminated(_:)``).
        var terminated = false

        init(_ reach: Reach) { self.reach = reach }

        mutating func keep(_ more: [KeptClosure]) {
            // Most nodes report their closures once: the array is shared, not copied.
            if closures.isEmpty { closures = more } else { closures += more }
        }
    }

    /// A subscription's entry, plain words that the table moves with no call: a reference
    /// in it, or an array, made every insertion, change and removal copy or free it through
    /// value witnesses. What only a library's subscriptions have is kept beside it
    /// (``LibraryParts``).
    private struct Subscription {
        /// Where one that reports its deinit is (``Reach/untilDeinit(_:)``); `nil` for one
        /// reached weakly, through its library parts.
        let address: UnsafeMutableRawPointer?
        /// The closures of its observer as the runtime stores it, while it holds them.
        var observer: StoredObserver?
    }

    /// What a library's subscription may have that the runtime's do not.
    private struct LibraryParts {
        /// The subscription, when it does not report its deinit.
        var reference: WeakBox?
        /// Its observer's closures as its library listed them, while it holds them.
        var listedObserver: [KeptClosure] = []
        /// The disposable its library handed the program, when the subscription does not keep it.
        var disposable: WeakBox?
    }

    private struct Owner {
        let reference: WeakReference
        let owner: ClosureOwner
        let closures: [KeptClosure]
    }

    private struct Tracked {
        var nodes = IdentifiedEntries<NodeID, Node>()
        var subscriptions = IdentifiedEntries<SubscriptionID, Subscription>()
        /// By subscription, for those that have any.
        var libraryParts: [SubscriptionID: LibraryParts] = [:]

        /// Changes the library parts of a subscription in the table.
        mutating func updateLibraryParts(_ id: SubscriptionID, _ change: (inout LibraryParts) -> Void) {
            var present = false
            subscriptions.update(id) { _ in present = true }
            if present { change(&libraryParts[id, default: LibraryParts()]) }
        }
        /// Commands and scheduled actions, by address.
        var owners: [UInt: Owner] = [:]
        var pruneAt = 1024

        /// Forgets what has gone, so a long run does not accumulate it.
        mutating func pruneIfLarge() {
            guard nodes.count + owners.count >= pruneAt else { return }
            nodes.removeAll { $0.reach.isGone }
            owners = owners.filter { $0.value.reference.object != nil }
            pruneAt = max(1024, 2 * (nodes.count + owners.count))
        }
    }

    private let tracked = LockedValue(Tracked())

    func node(_ id: NodeID, _ object: AnyObject, reportsDeinit: Bool) {
        let entry = Node(Reach(object, reportsDeinit: reportsDeinit))
        tracked.withLock { tracked in
            tracked.nodes.insert(entry, for: id)
            tracked.pruneIfLarge()
        }
    }

    func closuresKept(_ closures: [KeptClosure], by owner: ClosureOwner, object: AnyObject) {
        if case .node(let id) = owner {
            tracked.withLock { $0.nodes.update(id) { $0.keep(closures) } }
            return
        }
        let entry = Owner(reference: WeakReference(object), owner: owner, closures: closures)
        tracked.withLock { tracked in
            tracked.owners[address(of: object)] = entry
            tracked.pruneIfLarge()
        }
    }

    func nodeTerminated(_ id: NodeID) {
        tracked.withLock { $0.nodes.update(id) { $0.terminated = true } }
    }

    /// A node that reports its deinit is going: its entry is taken out before its memory can
    /// be freed.
    func nodeDeinitialized(_ id: NodeID) {
        tracked.withLock { $0.nodes.remove(id) }
    }

    func subscription(_ id: SubscriptionID, _ object: AnyObject, reportsDeinit: Bool) {
        guard reportsDeinit else {
            let parts = LibraryParts(reference: WeakBox(object))
            tracked.withLock { tracked in
                tracked.subscriptions.insert(Subscription(address: nil), for: id)
                tracked.libraryParts[id] = parts
            }
            return
        }
        let entry = Subscription(address: Unmanaged.passUnretained(object).toOpaque())
        tracked.withLock { $0.subscriptions.insert(entry, for: id) }
    }

    /// Remembers a subscription's observer closures, to name them in the snapshot.
    func storedObserver(_ id: SubscriptionID, closures: ObserverClosures) {
        if let stored = closures.stored {
            tracked.withLock { $0.subscriptions.update(id) { $0.observer = stored } }
        } else {
            let listed = closures.closures
            tracked.withLock { $0.updateLibraryParts(id) { $0.listedObserver = listed } }
        }
    }

    /// Remembers the disposable a library handed the program for a subscription that does not keep it.
    func disposableReturned(_ disposable: AnyObject, for id: SubscriptionID) {
        let box = WeakBox(disposable)
        tracked.withLock { $0.updateLibraryParts(id) { $0.disposable = box } }
    }

    func releasedObserver(_ id: SubscriptionID) {
        tracked.withLock { tracked in
            tracked.subscriptions.update(id) { $0.observer = nil }
            if !tracked.libraryParts.isEmpty { tracked.libraryParts[id]?.listedObserver = [] }
        }
    }

    /// The subscription ended, or (one that reports its deinit) is going.
    func ended(_ id: SubscriptionID) {
        tracked.withLock { tracked in
            tracked.subscriptions.remove(id)
            if !tracked.libraryParts.isEmpty { tracked.libraryParts.removeValue(forKey: id) }
        }
    }

    /// Forgets everything, once the closing snapshot is taken: the subscriptions a finished
    /// recording traced outlive it and keep telling it that they release their observers and
    /// end, and the table (a weak reference and the kept closures of every live entity)
    /// would live as long as the last of them.
    func clear() {
        tracked.withLock { $0 = Tracked() }
    }

    /// Walks the heap from everything still alive and describes what it found: each object
    /// with its strong retain count (not counting the walk's own references), what runtime
    /// entity it is, and each strong reference, named.
    /// - Parameters:
    ///   - since: The time from which objects the allocation table knows of are walked from
    ///     too (0: none are)...
    ///   - owns: ...those of them that the recording owns.
    func snapshot(
        limits: TraceHeap.Limits, allocatedSince since: UInt64, owns: @escaping (signalscope_allocation) -> Bool
    ) -> HeapSnapshot {
        // What the snapshot allocates for itself (its list of roots, the objects it loads
        // them into) is the tracer's, not the program's; it is noted as such all the same, so
        // that a freed object of the program's whose place it takes is known to be gone.
        Self.declaresTracerModule
        return CodeScopeMark.with(CodeScopeMark.tracer) { takeSnapshot(limits: limits, allocatedSince: since, owns: owns) }
    }

    /// The tracer's own objects (its recorder, buffers, tables) are never the program's: the
    /// walk is told so once, before the first.
    private static let declaresTracerModule: Void = HeapModules.declare(moduleOf: Recorder.self, as: .tracer)

    private func takeSnapshot(
        limits: TraceHeap.Limits, allocatedSince since: UInt64, owns: @escaping (signalscope_allocation) -> Bool
    ) -> HeapSnapshot {
        // The entries' fields as they are now, copied under the lock (the weak references as
        // weak references, never loaded there): the program's threads may still make and end
        // subscriptions while the snapshot is taken. An object that reports its deinit is
        // retained there, and given its weak reference once the lock is let go.
        let (heldNodes, heldSubscriptions, owners) = tracked.withLock { tracked in
            (
                tracked.nodes.sorted().map {
                    (id: $0.id, held: $0.entry.reach.held(), closures: $0.entry.closures, terminated: $0.entry.terminated)
                },
                tracked.subscriptions.sorted().map { id, entry in
                    let parts = tracked.libraryParts[id]
                    let reach = entry.address.map(Reach.untilDeinit) ?? parts?.reference.map(Reach.weakly)
                    return (id: id, held: reach?.held() ?? .gone, observer: entry.observer, listed: parts?.listedObserver ?? [],
                            disposable: parts?.disposable?.reference)
                },
                Array(tracked.owners.values)
            )
        }
        let nodes = heldNodes.map { (id: $0.id, reference: $0.held.reference(), closures: $0.closures, terminated: $0.terminated) }
        let subscriptions = heldSubscriptions.map {
            (id: $0.id, reference: $0.held.reference(), closures: $0.observer?.closures ?? $0.listed, disposable: $0.disposable)
        }
        // The walk loads each root from its weak reference only while it reads it.
        var roots: [HeapWalker.Root] = []
        var names: [ClosureKey: KeptClosure] = [:]
        func name(_ closures: [KeptClosure]) {
            for closure in closures where closure.context != 0 { names[ClosureKey(closure), default: closure] = closure }
        }
        for node in nodes {
            let reference = node.reference
            roots.append(HeapWalker.Root(load: { reference?.object }, entity: TraceHeap.Role.node(node.id).tag))
            name(node.closures)
        }
        var droppedDisposables: [SubscriptionID] = []
        for subscription in subscriptions {
            let (id, reference, disposable) = (subscription.id, subscription.reference, subscription.disposable)
            roots.append(HeapWalker.Root(load: { reference?.object }, entity: TraceHeap.Role.subscription(id).tag))
            // The disposable its library handed the program, or the one the subscription keeps.
            roots.append(HeapWalker.Root(
                load: { disposable?.object ?? (reference?.object as? any TracedSubscription)?.disposableObject },
                entity: TraceHeap.Role.disposable(id).tag))
            if let disposable, disposable.object == nil, reference?.object != nil { droppedDisposables.append(id) }
            name(subscription.closures)
        }
        for owner in owners {
            let entity: TraceHeap.Role
            switch owner.owner {
            case .command: entity = .command
            case .scheduledAction(let subscription): entity = .scheduledAction(subscription)
            case .node: continue
            }
            let reference = owner.reference
            roots.append(HeapWalker.Root(load: { reference.object }, entity: entity.tag))
            name(owner.closures)
        }
        let walk = FrozenWalk(walker: HeapWalker(limits: limits), allocatedSince: since, owns: owns).walk(roots: roots)
        var snapshot = HeapSnapshot(limits: limits, walk: walk)
        snapshot.droppedDisposables = droppedDisposables
        // Objects are numbered in the order the walk reached them, from 1.
        let ids = walk.vertices.indices.map { UInt64($0 + 1) }
        // Ranks by when the allocation table saw each object allocated, from 1 (0: unknown).
        var order = [UInt64](repeating: 0, count: walk.vertices.count)
        let allocated = walk.vertices.indices.filter { walk.vertices[$0].allocatedBy != nil }
        for (rank, index) in allocated.sorted(by: { walk.vertices[$0].allocatedBy!.time < walk.vertices[$1].allocatedBy!.time }).enumerated() {
            order[index] = UInt64(rank + 1)
        }
        snapshot.objects = walk.vertices.enumerated().map { index, vertex in
            HeapSnapshot.Object(id: ids[index], vertex: vertex, role: walk.entities[vertex.address].flatMap(TraceHeap.Role.init(tag:)), allocationOrder: order[index])
        }
        let userClasses = walk.vertices.filter { $0.category == .user }
        let sites = CodeSites.sites(ofClasses: Set(userClasses.map(\.metadata)))
        var typeNames: [String: TraceSite] = [:]
        for vertex in userClasses { typeNames[vertex.typeName] = typeNames[vertex.typeName] ?? sites[vertex.metadata] }
        snapshot.typeSites = typeNames.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        let kept = walk.edges.map { edge in
            edge.reference.function.flatMap { names[ClosureKey(function: $0, context: edge.reference.target)] }
        }
        // The closures the runtime did not report, named from their symbols and placed by
        // debug information, in one batch each.
        let unreported = Set(zip(walk.edges, kept).compactMap { edge, closure in closure == nil ? edge.reference.function : nil })
        let symbols = Symbols.closureNames(at: Array(unreported))
        let bodies = Dictionary(uniqueKeysWithValues: unreported.map { ($0, Symbols.implementation(ofForwarder: $0) ?? $0) })
        let bodySites = CodeSites.sites(ofFunctions: Set(bodies.values))
        let closureSites = bodies.compactMapValues { bodySites[$0] }
        snapshot.references = zip(walk.edges, kept).map { edge, closure in
            let function = closure == nil ? edge.reference.function : nil
            return HeapSnapshot.Reference(
                from: ids[edge.from], to: ids[edge.to], found: edge.reference, closure: closure,
                symbol: function.flatMap { symbols[$0] }, symbolSite: function.flatMap { closureSites[$0] })
        }
        let terminated = Set(nodes.filter(\.terminated).map(\.id))
        for (address, tag) in walk.entities.sorted(by: { $0.key < $1.key }) {
            guard let index = walk.index[address], let entity = TraceHeap.Role(tag: tag) else { continue }
            let retainCount = walk.vertices[index].retainCount
            switch entity {
            case .node(let id): snapshot.nodes.append((id, retainCount, terminated.contains(id)))
            case .subscription(let id): snapshot.subscriptions.append((id, retainCount))
            default: continue
            }
        }
        snapshot.nodes.sort { $0.0 < $1.0 }
        snapshot.subscriptions.sort { $0.0 < $1.0 }
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
        let role: TraceHeap.Role?
        /// Its rank by allocation time among the snapshot's objects, from 1 (0: unknown).
        let allocationOrder: UInt64
    }

    struct Reference {
        let from: UInt64
        let to: UInt64
        let found: FoundReference
        /// The closure the reference is the context of, as the runtime named it.
        let closure: KeptClosure?
        /// For a closure the runtime did not name: its function's name, and where its code is.
        let symbol: String?
        let symbolSite: TraceSite?
    }

    let limits: TraceHeap.Limits
    let objectLimitReached: Bool
    let depthLimitReached: Bool
    let memoryUnreadable: Bool
    /// Whether the walk started from every object allocated while recording.
    let usedAllocationTable: Bool
    /// Why no walk was made, if none was.
    let unwalkedReason: String?
    /// Whether the walk did not see the whole heap.
    var sawPartOfTheHeap: Bool { objectLimitReached || depthLimitReached || memoryUnreadable || unwalkedReason != nil }
    var objects: [Object] = []
    var references: [Reference] = []
    /// Live nodes: strong retain count, and for subjects whether they terminated.
    var nodes: [(NodeID, retainCount: Int, terminated: Bool)] = []
    /// Live subscriptions and their strong retain counts.
    var subscriptions: [(SubscriptionID, retainCount: Int)] = []
    /// The live subscriptions whose disposables, handed to the program by their library, were freed.
    var droppedDisposables: [SubscriptionID] = []
    /// Where the program's classes among the objects are declared, by type name.
    var typeSites: [(typeName: String, site: TraceSite)] = []

    init(limits: TraceHeap.Limits, walk: HeapWalker.Result) {
        self.limits = limits
        objectLimitReached = walk.objectLimitReached
        depthLimitReached = walk.depthLimitReached
        memoryUnreadable = walk.memoryUnreadable
        usedAllocationTable = walk.usedAllocationTable
        unwalkedReason = walk.unwalkedReason
    }
}

/// A weak reference that can sit behind a mutex.
struct WeakReference: @unchecked Sendable {
    weak var object: AnyObject?

    init(_ object: AnyObject) {
        self.object = object
    }
}
