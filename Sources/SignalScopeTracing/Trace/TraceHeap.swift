import SignalScope
import SignalScopeHeap

/// What the closing heap walk found: every object it reached from the runtime's live
/// entities (and from what closures referred to weakly), each with its strong retain count,
/// and every strong reference between them, named by where it is.
///
/// Objects the walk reached but did not explore (its budget ran out first) are here with
/// their retain counts; their own references are not, so what they hold counts as held by
/// something the trace did not see.
public struct TraceHeap: Sendable {
    /// An object the walk reached.
    public struct Object: Sendable, Hashable {
        /// Its id in the trace (the same as in `capture` records for a user object).
        public let id: ObjectID
        /// Its type, as the runtime names it; for a closure context or a box, what it is.
        public let typeName: String
        /// Its address when the walk read it.
        public let address: UInt64
        /// Whose object it is.
        public let category: Category
        /// Its strong retain count, not counting the tracer's own momentary references.
        public let retainCount: Int
        /// How much of what it holds the walk saw.
        public let exploration: Exploration
        /// The runtime entity it is (a node, a subscription, an observer...), if any.
        public let role: Role?
        /// When and by whom it was allocated, as far as the recording knows.
        public let allocation: Allocation
        /// Its rank among the snapshot's objects by when they were allocated (1: the oldest),
        /// when the allocation table knew it: an owner is usually older than what it made.
        public let allocationOrder: Int?
        /// For a closure context: how many of its weak captures are of objects that were freed
        /// before the snapshot (a `[weak self]` whose `self` has gone).
        public var freedWeakCaptures = 0
        /// The class of the first of them whose class the walk knew (`ProfileScreen`, for a
        /// `[weak self]` in one of its methods), as `String(reflecting:)` names it.
        public var freedWeakReferent: String?
    }

    /// When, and by whom, an object was allocated.
    public enum Allocation: UInt8, Sendable, Hashable {
        /// Before recording started, or the trace does not say (a recording that could not
        /// keep its allocation table).
        case unknown = 0
        /// While recording, by code other than the recorded code's (another thread's, in a
        /// recording of some code only).
        case whileRecording = 1
        /// By the recorded code: anything, in a recording of the whole process; the body's
        /// own thread or task, in a recording of some code (``Tracer/record(values:heapLimits:_:)``).
        case byRecordedCode = 2
    }

    /// Whose object it is, by its type.
    public typealias Category = HeapCategory

    /// How much of an object's references the walk saw.
    public typealias Exploration = HeapExploration

    /// What an object is to the runtime, if anything: a node, a subscription, its
    /// disposable, a command, a scheduled action. (``TraceEntity`` is what a trace names.)
    public enum Role: Sendable, Hashable {
        /// A node of the signal graph (a signal, subject, property, lifetime, operator stage).
        case node(NodeID)
        /// A subscription (the runtime's subscriber object).
        case subscription(SubscriptionID)
        /// The disposable that ends a subscription.
        case disposable(SubscriptionID)
        /// A command.
        case command
        /// An action a scheduler will run, scheduled on behalf of a subscription if any.
        case scheduledAction(SubscriptionID?)
    }

    /// A strong reference between two objects the walk reached.
    public struct Reference: Sendable, Hashable {
        public let from: ObjectID
        public let to: ObjectID
        /// What it is to the object that holds it.
        public let kind: ReferenceKind
        /// Where in it: a stored property's path (`state.owner`), an enum case (`payment`), a
        /// tuple element (`0`); empty for the value itself.
        public let path: String
        /// Where the reference's word is in the holder, when it is stored there as such.
        public let offset: Int?
        /// When the reference is a closure's context: the closure.
        public let closure: Closure?
        /// `false` when a conservative scan found it: the word may be stale.
        public let isExact: Bool
        /// A weak reference (from a closure's `[weak x]` capture): it keeps nothing alive,
        /// and says who refers to the object.
        public let isWeak: Bool

        /// Whether it is a strong reference the walk decoded exactly: what leak proofs count.
        public var isCounted: Bool { isExact && !isWeak }
    }

    /// What a reference is to the object that holds it.
    public typealias ReferenceKind = HeapReferenceKind

    /// A closure a reference is the context of: named by the runtime when it keeps it, by
    /// its code's symbol when the binary exports one, unnamed otherwise.
    public struct Closure: Sendable, Hashable {
        /// What it is for, when the runtime keeps it (`transform`, `next closure`, ...).
        public let role: String?
        /// Where the user's code passed it, when the runtime knows.
        public let site: TraceSite?
        /// For a closure the runtime does not keep, its code's name from the symbol tables
        /// (`closure #1 in Screen.init()`), when they have it.
        public let name: String?
    }

    /// How far the walk was allowed to go.
    public typealias Limits = HeapWalkLimits

    /// Every object the walk reached, by id.
    public internal(set) var objects: [ObjectID: Object] = [:]
    /// Every reference, in the order the walk found them.
    public internal(set) var references: [Reference] = [] {
        didSet { indexed = false }
    }
    /// The walk's budget (`nil` for traces with no heap walk).
    public internal(set) var limits: Limits?
    /// Whether the walk stopped exploring because it reached its object budget.
    public internal(set) var objectLimitReached = false
    /// Whether some objects were beyond its depth budget.
    public internal(set) var depthLimitReached = false
    /// The process could not read its own memory through the kernel (a sandbox denies
    /// `process_vm_readv`): no object was walked.
    public internal(set) var memoryUnreadable = false
    /// Whether the walk started from every object allocated while recording, not only from
    /// the runtime's live entities: then garbage made of plain objects is found too.
    public internal(set) var coversAllocations = false
    /// Why no walk was made, when none could be made safely.
    public internal(set) var unwalkedReason: String?
    /// Where the program's classes whose instances the walk reached are declared, by type
    /// name (the line of the declaration, or of the class's `deinit`), where debug
    /// information says.
    public internal(set) var typeSites: [String: TraceSite] = [:]

    /// Whether the trace has its closing snapshot: a process killed or crashed while
    /// recording leaves none.
    public var hasSnapshot: Bool { limits != nil }

    private var outgoing: [ObjectID: [Int]] = [:]
    private var incoming: [ObjectID: [Int]] = [:]
    private var objectsByRole: [Role: ObjectID] = [:]
    private var indexed = false

    /// Whether the walk saw everything reachable: there is a snapshot, memory could be
    /// read, and no budget ran out.
    public var isComplete: Bool {
        hasSnapshot && !memoryUnreadable && unwalkedReason == nil && !objectLimitReached && !depthLimitReached
    }

    /// The references `object` holds.
    public func references(from object: ObjectID) -> [Reference] {
        (outgoing[object] ?? []).map { references[$0] }
    }

    /// The references to `object`.
    public func references(to object: ObjectID) -> [Reference] {
        (incoming[object] ?? []).map { references[$0] }
    }

    /// The object that has `role`.
    public func object(for role: Role) -> Object? {
        objectsByRole[role].flatMap { objects[$0] }
    }

    /// What the observer closures (next, error, completed) of `subscription` strongly
    /// capture, through their contexts and boxes: user objects, and the subscriptions they
    /// forward to, each with its number of strong references (a screen the next and the
    /// error closure both capture counts 2). Empty when the subscription was not alive at
    /// the snapshot.
    public func observerCaptures(of subscription: SubscriptionID) -> [TraceEntity: Int] {
        guard let holder = object(for: .subscription(subscription)) else { return [:] }
        var captures: [TraceEntity: Int] = [:]
        for reference in references(from: holder.id) where reference.isCounted {
            guard let role = reference.closure?.role, Self.observerRoles.contains(role) else { continue }
            // A closure that captures one object has it as its context; one that captures
            // more has a context object (and a box for each captured `var`) in between.
            var pending = [reference.to]
            var seen: Set<ObjectID> = []
            while let id = pending.popLast() {
                guard seen.insert(id).inserted, let target = objects[id] else { continue }
                if case .subscription(let captured)? = target.role {
                    captures[.subscription(captured), default: 0] += 1
                } else if target.role == nil, target.category == .user {
                    captures[.object(target.id), default: 0] += 1
                } else if target.category == .closureContext || target.category == .box {
                    pending += references(from: id).filter(\.isCounted).map(\.to)
                }
            }
        }
        return captures
    }

    private static let observerRoles: Set<String> = [ClosureRole.next.rawValue, ClosureRole.error.rawValue, ClosureRole.completed.rawValue]

    /// The nodes and subscription disposables the user object `object` holds, through
    /// anything but other user objects and runtime entities (its stored properties,
    /// collections, boxes, closures it stores, a property's signal, a bag of disposables);
    /// a disposable as its subscription.
    public func entitiesHeld(by object: ObjectID) -> [TraceEntity] {
        var held: [TraceEntity] = []
        var seen: Set<ObjectID> = [object]
        var pending = references(from: object).map(\.to)
        while let next = pending.popLast() {
            guard seen.insert(next).inserted, let reached = objects[next] else { continue }
            switch reached.role {
            case .node(let node): held.append(.node(node))
            case .disposable(let subscription): held.append(.subscription(subscription))
            case .subscription, .command, .scheduledAction: break
            case nil where reached.category != .user:
                pending += references(from: next).map(\.to)
            case nil: break
            }
        }
        return held.sorted { "\($0)" < "\($1)" }
    }

    /// Whether something a walk did not see holds an object (a global, a local still in scope,
    /// an object beyond the walk's budget), from its strong retain count and the strong
    /// references to it the walk read exactly: a count not made up of them. A count below them
    /// means the walk misread something, so the object counts as held, never as free. The one
    /// test of "held" for the analysis of a closing snapshot and the chain a watched object's
    /// mid-run snapshot writes.
    public static func isHeldFromOutside(retainCount: Int, exactReferences: Int) -> Bool {
        retainCount != exactReferences
    }

    /// What a snapshot counted of one object: its strong retain count and the strong references
    /// to it the walk found, read exactly or by a conservative scan. What holds the object is
    /// judged from it when the log is read (``isHeldFromOutside``), so that the verdict is the
    /// analysis's, not the recorder's.
    public struct Holding: Sendable, Hashable {
        public var retainCount: Int
        public var exactReferences: Int
        public var inexactReferences: Int

        public init(retainCount: Int, exactReferences: Int, inexactReferences: Int) {
            (self.retainCount, self.exactReferences, self.inexactReferences) = (retainCount, exactReferences, inexactReferences)
        }

        /// Whether something the walk did not see holds the object: no word a conservative
        /// scan read points to it (such words account for what the count does not show), and
        /// its count is not the exact references (``TraceHeap/isHeldFromOutside(retainCount:exactReferences:)``).
        public var isHeldFromOutside: Bool {
            inexactReferences == 0 && TraceHeap.isHeldFromOutside(retainCount: retainCount, exactReferences: exactReferences)
        }

        /// Whether the object is held, besides the exact references, only by words a
        /// conservative scan read.
        public var isHeldOnlyByInexactWords: Bool { inexactReferences > 0 }
    }

    /// What a finding's path calls a collection whose storage class is `typeName`: `an
    /// array`, `a dictionary`, `a set`, `a deque`, `a key path`; `nil` for other storage.
    public static func collectionNoun(ofStorage typeName: String) -> String? {
        CollectionStorages.noun(ofStorage: typeName)
    }

    /// Builds the lookup tables once everything has been read.
    mutating func index() {
        guard !indexed else { return }
        outgoing = [:]
        incoming = [:]
        for (position, reference) in references.enumerated() {
            outgoing[reference.from, default: []].append(position)
            incoming[reference.to, default: []].append(position)
        }
        objectsByRole = [:]
        for object in objects.values {
            if let role = object.role { objectsByRole[role] = object.id }
        }
        indexed = true
    }
}
