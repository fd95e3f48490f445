import CTracingSupport
import SignalScopeCore
import Synchronization

/// What a recording holds weakly to report in its closing snapshot: live subscriptions,
/// subject-like nodes, and the user objects observers captured.
///
/// Touched when nodes and subscriptions are made and ended, never per event.
final class LiveEntities: Sendable {
    /// A snapshot entry: which kind of thing, its id, its strong retain count.
    enum Entity: UInt8 {
        case node = 0, subscription = 1, object = 2
    }

    private struct Tracked {
        var nodes: [NodeID: WeakReference] = [:]
        var subscriptions: [SubscriptionID: (reference: WeakReference, address: UInt, contexts: [UInt])] = [:]
        var subscriptionAddresses: [UInt: SubscriptionID] = [:]
        var objects: [UInt: (id: UInt64, reference: WeakReference)] = [:]
        var nextObjectID: UInt64 = 1
        var pruneAt = 1024

        /// Forgets nodes that have gone, so a long run does not accumulate them.
        mutating func pruneIfLarge() {
            guard nodes.count + objects.count >= pruneAt else { return }
            nodes = nodes.filter { $0.value.object != nil }
            objects = objects.filter { $0.value.reference.object != nil }
            pruneAt = max(1024, 2 * (nodes.count + objects.count))
        }
    }

    private let tracked = Mutex(Tracked())

    /// Held by every recording while it holds momentary strong references to what it
    /// tracks, so that no recording reads retain counts while another inflates them.
    private static let momentaryReferences = Mutex(())

    func node(_ id: NodeID, _ object: AnyObject) {
        let reference = WeakReference(object)
        tracked.withLock { tracked in
            tracked.nodes[id] = reference
            tracked.pruneIfLarge()
        }
    }

    func subscription(_ id: SubscriptionID, _ object: AnyObject) {
        let reference = WeakReference(object)
        let address = UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
        tracked.withLock { tracked in
            tracked.subscriptions[id] = (reference, address, [])
            tracked.subscriptionAddresses[address] = id
        }
    }

    func ended(_ id: SubscriptionID) {
        tracked.withLock { tracked in
            guard let ended = tracked.subscriptions.removeValue(forKey: id) else { return }
            if tracked.subscriptionAddresses[ended.address] == id {
                tracked.subscriptionAddresses.removeValue(forKey: ended.address)
            }
        }
    }

    /// Remembers the contexts of a subscription's observer closures, to scan them again for
    /// the snapshot: what a closure captures can change after it is stored (a captured `var`).
    /// They stay valid while the subscription holds its observer, which ends when it is
    /// disposed, when the recorder forgets them.
    func storedObserver(_ id: SubscriptionID, contexts: [UInt]) {
        tracked.withLock { tracked in tracked.subscriptions[id]?.contexts = contexts }
    }

    /// The observer contexts of every live subscription.
    func liveObservers() -> [(SubscriptionID, [UInt])] {
        tracked.withLock { tracked in
            tracked.subscriptions.filter { !$0.value.contexts.isEmpty && $0.value.reference.object != nil }
                .map { ($0.key, $0.value.contexts) }.sorted { $0.0 < $1.0 }
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

    /// Everything still alive, with its strong retain count (not counting the reference
    /// this check holds) and, for subjects, whether they terminated; and for each live
    /// object what its stored properties hold.
    func snapshot() -> (
        alive: [(Entity, UInt64, retainCount: UInt64, terminated: Bool)],
        holds: [(object: UInt64, node: NodeID?, subscription: SubscriptionID?)]
    ) {
        Self.momentaryReferences.withLock { _ in takeSnapshot() }
    }

    private func takeSnapshot() -> (
        alive: [(Entity, UInt64, retainCount: UInt64, terminated: Bool)],
        holds: [(object: UInt64, node: NodeID?, subscription: SubscriptionID?)]
    ) {
        let tracked = tracked.withLock { $0 }
        var alive: [(Entity, UInt64, retainCount: UInt64, terminated: Bool)] = []
        var holds: [(object: UInt64, node: NodeID?, subscription: SubscriptionID?)] = []
        for (id, reference) in tracked.nodes.sorted(by: { $0.key < $1.key }) {
            if let object = reference.object {
                let terminated = (object as? any TracedNode)?.hasTerminated ?? false
                alive.append((.node, id.rawValue, retainCount(object), terminated))
            }
        }
        for (id, entry) in tracked.subscriptions.sorted(by: { $0.key < $1.key }) {
            if let object = entry.reference.object { alive.append((.subscription, id.rawValue, retainCount(object), false)) }
        }
        for (id, reference) in tracked.objects.values.sorted(by: { $0.id < $1.id }) {
            guard let object = reference.object else { continue }
            alive.append((.object, id, retainCount(object), false))
            for held in storedProperties(of: object) {
                if let node = held as? any TracedNode {
                    holds.append((id, node.nodeID, nil))
                } else if let disposable = held as? Disposable, let subscription = disposable.subscriptionID {
                    holds.append((id, nil, subscription))
                }
            }
        }
        return (alive, holds)
    }

    private func retainCount(_ object: AnyObject) -> UInt64 {
        // `object` itself is one strong reference, held only for this call.
        UInt64(swift_retainCount(Unmanaged.passUnretained(object).toOpaque())) - 1
    }

    /// The values of an object's stored properties (and of its superclasses'), with
    /// optionals unwrapped.
    private func storedProperties(of object: AnyObject) -> [Any] {
        var values: [Any] = []
        var mirror: Mirror? = Mirror(reflecting: object)
        while let current = mirror {
            for child in current.children { values.append(unwrapped(child.value)) }
            mirror = current.superclassMirror
        }
        return values
    }

    private func unwrapped(_ value: Any) -> Any {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional, let wrapped = mirror.children.first else { return value }
        return unwrapped(wrapped.value)
    }
}

/// A weak reference that can sit behind a mutex.
struct WeakReference: @unchecked Sendable {
    weak var object: AnyObject?

    init(_ object: AnyObject) {
        self.object = object
    }
}
