import Foundation
import SignalScope

/// A recorded trace: every record of an event log, and the signal graph and subscriptions
/// they describe.
///
/// Get one from `Tracer.record { }`, or read a log file with
/// ``init(contentsOf:)``.
public struct Trace: Sendable {
    /// A node of the signal graph.
    public struct Node: Sendable, Hashable {
        /// The node's id, unique in the process that recorded it.
        public let id: NodeID
        /// What the node is: a signal, a subject, a property, an operator stage, ...
        public let kind: NodeKind
        /// The operator or factory that made it: `map`, `subject`, `createSignal`, ...
        public let name: String
        /// What it means for its subscriptions (cold, hot, bounding, ...), as the runtime
        /// recorded it.
        public let traits: NodeTraits
        /// The name given with `named(_:)`, if any.
        public internal(set) var userName: String?
        /// Where the user's code created it.
        public let site: TraceSite
        /// Its parents: those declared at creation, then those that arrived later (inner
        /// signals), each once.
        public internal(set) var parents: [NodeEdge]
        /// For subjects, properties, lifetimes and commands: its strong retain count when
        /// recording stopped, or `nil` if it was gone (or the trace has no snapshot).
        public internal(set) var retainCountAtEnd: Int?
        /// For a subject alive when recording stopped: whether it had sent its terminal
        /// event. A live subject that never did keeps its subscribers.
        public internal(set) var terminatedAtEnd: Bool?
    }

    /// A user object of the trace's: alive at the snapshot and allocated while it recorded
    /// (every user object the walk reached, when allocations were not noted), or captured
    /// by an observer of its subscriptions. What it holds and what captures it are the heap's
    /// to say (``TraceHeap/entitiesHeld(by:)``, ``TraceHeap/observerCaptures(of:)``).
    public struct Object: Sendable, Hashable {
        /// The object's id in the trace (not its address, which may be reused).
        public let id: ObjectID
        /// The object's type, as the Swift runtime names it.
        public let typeName: String
        /// Its address when first seen (addresses are reused once objects go away).
        public let address: UInt64
        /// Its strong retain count when recording stopped, or `nil` if it was gone.
        public internal(set) var retainCountAtEnd: Int?
    }

    /// How a subscription ended.
    public enum Ending: Sendable, Hashable {
        case completed
        case error(String)
        /// Disposed before a terminal event, for this reason.
        case disposed(DisposalCause)
    }

    /// One subscription.
    public struct Subscription: Sendable, Hashable {
        /// The subscription's id, unique in the process that recorded it.
        public let id: SubscriptionID
        /// The node it subscribed to.
        public let node: NodeID
        /// The subscription whose creation block made this one.
        public let parent: SubscriptionID?
        /// Where the user's code subscribed (for operators' inner subscriptions, where the
        /// operator was applied).
        public let site: TraceSite
        /// For a property binding: the node of the property it sets.
        public let bindingTarget: NodeID?
        /// The values it received, as summaries (`nil` when values were not recorded).
        public internal(set) var values: [String?] = []
        /// How it ended; `nil` while it was still live when the trace ends.
        public internal(set) var ending: Ending?
        /// Whether its observer closures were still held when the trace ends.
        public internal(set) var holdsObserver = false
        /// Which closures its observer had.
        public internal(set) var handlers: ObserverHandlers = []
        /// Its strong retain count when recording stopped, or `nil` if it had ended or was
        /// gone.
        public internal(set) var retainCountAtEnd: Int?
    }

    /// How much of a log a trace keeps.
    public enum Detail: Sendable, Hashable {
        /// Every record, every value and every subscription, ended or not.
        case everything
        /// What analysis needs, so that memory grows with what is alive, not with the
        /// number of events: no records, no values, and ended subscriptions only as the
        /// facts below (violations, errors without a handler, cold signals' subscribers).
        case liveEntities
    }

    /// An event sent after a terminal event.
    public struct Violation: Sendable, Hashable {
        /// The node the event was sent to.
        public let node: NodeID
        /// The subscription it was sent to, or `nil` when it was sent to a subject.
        public let subscription: SubscriptionID?
        /// Which event was dropped.
        public let event: DroppedEvent.Kind
        /// The line of user code that sent it, when the stack had a user frame with a source
        /// location.
        public let site: TraceSite?
        /// The user frames of the call stack that sent it, innermost first, one
        /// `function (path:line)` a line.
        public let stack: String
    }

    /// How much of the log this trace kept.
    public let detail: Detail
    /// Every record, in the order things happened (empty with ``Detail/liveEntities``).
    public internal(set) var records: [TraceRecord] = []
    /// How many events the log held (its records apart from the string table), whatever
    /// ``detail`` kept of them.
    public private(set) var eventCount = 0
    /// The earliest and latest timestamps of the records (`nil` without records). A thread
    /// takes its sequence number and reads the clock in two steps, so timestamps in sequence
    /// order need not be sorted: drawings place events within this range, not from the
    /// first record.
    public var timeRange: ClosedRange<UInt64>? {
        guard let first = records.first?.timestamp else { return nil }
        var range = (first, first)
        for record in records { range = (min(range.0, record.timestamp), max(range.1, record.timestamp)) }
        return range.0...range.1
    }
    /// Problems met while reading (a truncated or damaged tail); empty for a sound log.
    public internal(set) var warnings: [String] = []
    /// Whether reading skipped records and went on past them (a malformed record, the rest
    /// of a damaged batch, records the file no longer held when it was read): what they said
    /// is missing, even from a log that ends cleanly.
    public internal(set) var skippedRecords = false
    /// Every node the trace saw created, by id.
    public internal(set) var nodes: [NodeID: Node] = [:]
    /// The subscriptions (with ``Detail/liveEntities``, only those still live at the end).
    public internal(set) var subscriptions: [SubscriptionID: Subscription] = [:]
    /// Events sent after a terminal event (the first 10,000).
    public internal(set) var violations: [Violation] = []
    /// The records of kinds that define their own payload (``TraceEvent/extended(_:)``),
    /// in order; kept even when the trace keeps only live entities, for the analyzers of
    /// those kinds.
    public internal(set) var extendedEvents: [TraceRecord] = []
    /// Whether the program ran actions on a `TestScheduler` while recording: its records
    /// then say what virtual time things happened at (``TraceEvent/virtualTime(nanoseconds:)``).
    public private(set) var usesVirtualTime = false
    /// Whether the log has its end record: the recording stopped cleanly, rather than being
    /// cut off. (``TraceHeap/isComplete`` is another fact: whether the walk saw everything.)
    public private(set) var hasEnd = false
    /// The trace's user objects (``Object``), by id.
    public internal(set) var objects: [ObjectID: Object] = [:]
    /// What the closing heap walk found: the objects alive when recording stopped and the
    /// strong references between them (empty when the trace has no closing snapshot).
    public private(set) var heap = TraceHeap()

    init(detail: Detail) {
        self.detail = detail
        facts = GatheredFacts(TraceFacts.all)
    }


    /// Takes in the next record, as reading a log does.
    package mutating func add(_ record: TraceRecord) {
        eventCount += 1
        if detail == .everything { records.append(record) }
        if ended.count > 0, let id = record.event.subscription, ended[id.rawValue] != nil { return }
        apply(record)
        let kind = record.event.kind
        guard facts.followed.contains(kind) else { return }
        facts.makeUnique()
        facts.observe(record, kind: kind, in: self)
    }

    /// The fact of type `type` gathered while the trace was read (``TraceFacts``); `nil` if
    /// it was registered only after.
    public func fact<Fact: TraceFact>(_ type: Fact.Type) -> Fact? {
        for case let fact as Fact in facts.all { return fact }
        return nil
    }

    /// Finishes the trace as a read log is finished (a copy, for ``soFar``; in place, for a
    /// log read to its end, whose storage is then copied no more).
    mutating func finish() {
        facts.makeUnique()
        facts.finish(in: self)
        knownParents = []
        heap.index()
        addCapturedObjects()
    }

    /// This trace seen against another snapshot of its heap: the chain that held a watched
    /// object (``RetainedObject/heap``), taken while the program ran.
    public func replacingHeap(_ heap: TraceHeap) -> Trace {
        var copy = self
        copy.heap = heap
        return copy
    }

    /// Adds the user objects the observers of live subscriptions capture, wherever they
    /// were allocated: what a subscription keeps alive is the trace's concern.
    private mutating func addCapturedObjects() {
        for id in subscriptions.keys {
            for case .object(let object) in heap.observerCaptures(of: id).keys where objects[object] == nil {
                guard let found = heap.objects[object] else { continue }
                objects[object] = Object(id: object, typeName: found.typeName, address: found.address)
                objects[object]?.retainCountAtEnd = found.retainCount
            }
        }
    }

    /// Whether the trace gathered facts of type `type` while it was read (``TraceFacts``).
    public func gathered(_ type: any TraceFact.Type) -> Bool {
        facts.all.contains { ObjectIdentifier(Swift.type(of: $0)) == ObjectIdentifier(type) }
    }

    /// The subscriptions made by `subscription`'s creation block, in order.
    public func children(of subscription: SubscriptionID) -> [Subscription] {
        subscriptions.values.filter { $0.parent == subscription }.sorted { $0.id < $1.id }
    }

    /// With ``Detail/liveEntities``: subscriptions that ended, so that a record of theirs
    /// read after the end (another thread's) does not bring them back.
    private var ended = IdentifierTable<Void>()
    /// What the registered analyses gather while reading (``TraceFacts``).
    var facts: GatheredFacts

    /// Each node's parents as a set, while reading, so that a record repeating one is
    /// recognised in constant time (a `switchToLatest` gains a parent per inner signal).
    private var knownParents: Set<ParentKey> = []

    private struct ParentKey: Hashable {
        let node: NodeID
        let edge: NodeEdge

        // Inline mixing, as for the identifiers themselves: the synthesized hash feeds three
        // fields through SipHash, on every edge record read.
        func _rawHashValue(seed: Int) -> Int {
            let parent = identifierHash(edge.parent.rawValue, seed: seed &+ (edge.kind == .data ? 0 : 1))
            return identifierHash(node.rawValue, seed: parent)
        }
    }

    private static let violationLimit = 10_000

    private mutating func end(_ id: SubscriptionID) {
        // Once the closing snapshot has begun, what it saw alive is judged as it saw it (a
        // disposal another thread recorded while it was written), as with every detail.
        guard detail == .liveEntities, !heap.hasSnapshot else { return }
        subscriptions.removeValue(forKey: id)
        ended[id.rawValue] = ()
    }

    // In place through the dictionary's values: `subscriptions[id]?.field = value` moves the
    // entry out into an optional and back, in a coroutine whose frame is allocated.
    private mutating func updateSubscription(_ id: SubscriptionID, _ update: (inout Subscription) -> Void) {
        guard let index = subscriptions.index(forKey: id) else { return }
        update(&subscriptions.values[index])
    }

    private mutating func updateNode(_ id: NodeID, _ update: (inout Node) -> Void) {
        guard let index = nodes.index(forKey: id) else { return }
        update(&nodes.values[index])
    }

    private mutating func apply(_ record: TraceRecord) {
        switch record.event {
        case .node(let id, let kind, let name, let site, let parents, let traits):
            for edge in parents { knownParents.insert(ParentKey(node: id, edge: edge)) }
            nodes[id] = Node(
                id: id, kind: kind, name: name, traits: traits, userName: nil, site: site, parents: parents,
                retainCountAtEnd: nil, terminatedAtEnd: nil)
        case .nodeNamed(let id, let name):
            updateNode(id) { $0.userName = name }
        case .edge(let edge, let id):
            guard let index = nodes.index(forKey: id), knownParents.insert(ParentKey(node: id, edge: edge)).inserted else { break }
            nodes.values[index].parents.append(edge)
        case .subscribe(let id, let node, let parent, let site, let bindingTarget):
            subscriptions[id] = Subscription(id: id, node: node, parent: parent, site: site, bindingTarget: bindingTarget)
        case .observerStored(let id, let handlers):
            updateSubscription(id) {
                $0.holdsObserver = true
                $0.handlers = handlers
            }
        case .observerReleased(let id):
            updateSubscription(id) { $0.holdsObserver = false }
        case .next(let id, let value):
            if detail == .everything { updateSubscription(id) { $0.values.append(value) } }
        case .error(let id, let description):
            updateSubscription(id) { $0.ending = .error(description) }
        case .completed(let id):
            updateSubscription(id) { $0.ending = .completed }
        case .disposed(let id, let cause):
            updateSubscription(id) { if $0.ending == nil { $0.ending = .disposed(cause) } }
            end(id)
        case .snapshot(let limits, let objectLimitReached, let depthLimitReached, let memoryUnreadable, let coversAllocations, let unwalkedReason):
            heap.limits = limits
            heap.objectLimitReached = objectLimitReached
            heap.depthLimitReached = depthLimitReached
            heap.memoryUnreadable = memoryUnreadable
            heap.coversAllocations = coversAllocations
            heap.unwalkedReason = unwalkedReason
        case .heapObject(let object):
            heap.objects[object.id] = object
            // With the allocation table, the trace's objects are those allocated while it
            // recorded (without it, every user object the walk reached).
            guard object.category == .user, object.allocation == .byRecordedCode || !heap.coversAllocations else { break }
            if objects[object.id] == nil {
                objects[object.id] = Object(id: object.id, typeName: object.typeName, address: object.address)
            }
            objects[object.id]?.retainCountAtEnd = object.retainCount
        case .reference(let reference):
            heap.references.append(reference)
        case .nodeAlive(let id, let count, let terminated):
            updateNode(id) {
                $0.retainCountAtEnd = count
                $0.terminatedAtEnd = terminated
            }
        case .subscriptionAlive(let id, let count):
            updateSubscription(id) { $0.retainCountAtEnd = count }
        case .violation(let node, let subscription, let kind, let site, let stack):
            if violations.count < Self.violationLimit {
                violations.append(Violation(node: node, subscription: subscription, event: kind, site: site, stack: stack))
            }
        case .virtualTime:
            usesVirtualTime = true
        case .extended(let event):
            if detail == .liveEntities && type(of: event.payload).isHistory { break }
            extendedEvents.append(record)
        case .typeSite(let typeName, let site):
            heap.typeSites[typeName] = site
        case .end:
            hasEnd = true
        }
    }
}
