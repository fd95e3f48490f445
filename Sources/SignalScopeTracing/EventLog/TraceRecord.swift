import SignalScope
import SignalScopeHeap

/// Where something was created or subscribed, as a trace stores it.
public struct TraceSite: Sendable, Hashable, CustomStringConvertible {
    /// The file, as `#fileID` gives it (`Module/File.swift`).
    public let file: String
    /// The line in the file.
    public let line: Int
    /// The enclosing declaration, as `#function` gives it.
    public let function: String

    /// Makes a site from its parts.
    public init(file: String, line: Int, function: String) {
        self.file = file
        self.line = line
        self.function = function
    }

    public var description: String { "\(file):\(line)" }
}

/// Identifies an object of a heap snapshot (the closing one, or a watched object's mid-run
/// one): each snapshot numbers the objects it reached.
public struct ObjectID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The number behind the identifier, as event logs store it.
    public let rawValue: UInt64
    /// Wraps a number read from an event log.
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    /// Objects are numbered in the order their snapshot reached them.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { "o\(rawValue)" }
}

/// Which closures an observer has.
public struct ObserverHandlers: OptionSet, Sendable, Hashable {
    /// The handlers as bits: 1 next, 2 error, 4 completed.
    public let rawValue: UInt8
    /// Creates a set from its bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The observer has a `next` closure.
    public static let next = ObserverHandlers(rawValue: 1)
    /// The observer has an `error` closure.
    public static let error = ObserverHandlers(rawValue: 2)
    /// The observer has a `completed` closure.
    public static let completed = ObserverHandlers(rawValue: 4)

    init(_ closures: ObserverClosures) {
        self = []
        if closures.hasNext { insert(.next) }
        if closures.hasError { insert(.error) }
        if closures.hasCompleted { insert(.completed) }
    }
}

/// Something a snapshot reports on.
public enum TraceEntity: Sendable, Hashable, CustomStringConvertible {
    case node(NodeID)
    case subscription(SubscriptionID)
    case object(ObjectID)

    /// Its id as every export writes it: `n3`, `s12`, `o40`.
    public var description: String {
        switch self {
        case .node(let id): id.description
        case .subscription(let id): id.description
        case .object(let id): id.description
        }
    }
}

/// One record of an event log, decoded.
public struct TraceRecord: Sendable, Hashable {
    /// The record's place in the order things happened, across all threads.
    public let sequence: UInt64
    /// Monotonic nanoseconds.
    public let timestamp: UInt64
    /// The recording's small id for the thread that made the record.
    public let thread: UInt32
    /// What happened.
    public let event: TraceEvent
    /// The record whose event caused this one, when the recorder knew.
    public let cause: TraceCause?
    /// Whether it was written while a cold signal's creation block ran for a subscription,
    /// or in an action such a block scheduled (a timer's tick, a response), outside any
    /// delivery: work of that run's own, not an event it forwards.
    public let inCreationBlock: Bool

    /// Makes a record from its parts.
    public init(
        sequence: UInt64, timestamp: UInt64, thread: UInt32, event: TraceEvent, cause: TraceCause? = nil, inCreationBlock: Bool = false
    ) {
        self.sequence = sequence
        self.timestamp = timestamp
        self.thread = thread
        self.event = event
        self.cause = cause
        self.inCreationBlock = inCreationBlock
    }
}

/// Which earlier record caused a record, and how.
public struct TraceCause: Sendable, Hashable {
    /// How the effect followed from the cause.
    public enum Kind: UInt8, Sendable, Hashable {
        /// It happened on the same thread while the cause's event was being delivered (an
        /// operator sending on, an observer sending to a subject, a subscription or a disposal
        /// made in a `next` closure).
        case during = 1
        /// It happened in an action a scheduler ran, which was scheduled while the cause's
        /// event was being delivered (`delay`, `deliverOn`, `throttle`, `subscribeOn`).
        case scheduled = 2
    }

    /// The bit of a record prefix's cause kind byte that says the record was written in a
    /// cold signal's creation block (``TraceRecord/inCreationBlock``); the kind is the rest.
    static var creationBlockFlag: UInt8 { 0x80 }

    /// The sequence number of the causing record.
    public let sequence: UInt64
    /// How the effect followed from it.
    public let kind: Kind

    /// Makes a cause.
    public init(sequence: UInt64, kind: Kind) {
        self.sequence = sequence
        self.kind = kind
    }
}

/// What a record says happened.
public enum TraceEvent: Sendable, Hashable {
    // Payloads of more than three words are boxed (`indirect`): an event is then three
    // words and a tag, which the compiler copies inline, and reading copies every event.
    // Left unboxed, the large cases make it copied out of line through value witnesses.
    indirect case node(NodeID, kind: NodeKind, name: String, site: TraceSite, parents: [NodeEdge], traits: NodeTraits)
    case nodeNamed(NodeID, name: String)
    case edge(NodeEdge, to: NodeID)
    indirect case subscribe(SubscriptionID, node: NodeID, parent: SubscriptionID?, site: TraceSite, bindingTarget: NodeID?)
    case observerStored(SubscriptionID, handlers: ObserverHandlers)
    case observerReleased(SubscriptionID)
    /// `value` is the value's summary when values were recorded.
    case next(SubscriptionID, value: String?)
    case error(SubscriptionID, description: String)
    case completed(SubscriptionID)
    case disposed(SubscriptionID, cause: DisposalCause)
    /// `stack` is the call stack of the send that came too late, innermost first, one frame
    /// a line (`image(+offset)` where the binary exports no symbols: symbolicate with
    /// `addr2line`); its first frames are SignalScope's own.
    indirect case violation(node: NodeID, subscription: SubscriptionID?, event: DroppedEvent.Kind, site: TraceSite?, stack: String)
    /// The recording stopped cleanly after `recordCount` records.
    case end(recordCount: UInt64)
    /// The records that follow, up to `end`, describe what was alive when recording stopped;
    /// the heap walk went as far as `limits` allowed (`nil` when no walk was made),
    /// and says whether it ran out of either, or could not read memory at all; whether it
    /// started from every object allocated while recording; and why no walk was made, when
    /// none could be made safely. (Boxed: its payload is larger than most events'.)
    indirect case snapshot(
        limits: TraceHeap.Limits?, objectLimitReached: Bool, depthLimitReached: Bool, memoryUnreadable: Bool,
        coversAllocations: Bool, unwalkedReason: String?)
    /// In the snapshot: the node was alive, with this many strong references; for a subject,
    /// `terminated` says whether it had sent its terminal event.
    case nodeAlive(NodeID, retainCount: Int, terminated: Bool)
    /// In the snapshot: the subscription was alive and had not ended, with this many strong
    /// references.
    case subscriptionAlive(SubscriptionID, retainCount: Int)
    /// In the snapshot: an object the heap walk reached. (Boxed, like `reference`: their
    /// payloads are several times larger than any other event's, and every event is copied
    /// as it is read.)
    indirect case heapObject(TraceHeap.Object)
    /// In the snapshot: a strong reference between two objects the heap walk reached.
    indirect case reference(TraceHeap.Reference)
    /// A `TestScheduler`'s virtual clock reads this (when it is made and before each action it runs) (nanoseconds since
    /// `Date`'s reference date): what follows happened then, in the test's time.
    case virtualTime(nanoseconds: Int64)
    /// In the snapshot: where a class of the program's is declared (the line of its
    /// declaration, or of its `deinit`), for findings located at the class that holds a
    /// reference to change.
    indirect case typeSite(typeName: String, site: TraceSite)
    /// A record of a kind that defines its own payload (``TraceEventPayload``). (Boxed: its
    /// payload is an existential, which would make every event a value the compiler can
    /// only copy and switch on through its value witnesses.)
    indirect case extended(ExtendedEvent)

    /// The subscription the event is about, if it is about one.
    public var subscription: SubscriptionID? {
        switch self {
        case .subscribe(let id, _, _, _, _), .observerStored(let id, _), .observerReleased(let id), .next(let id, _),
            .error(let id, _), .completed(let id), .disposed(let id, _),
            .subscriptionAlive(let id, _):
            id
        case .violation(_, let id, _, _, _): id
        case .extended(let event): event.payload.subscription
        case .node, .nodeNamed, .edge, .end, .snapshot, .nodeAlive, .heapObject, .reference, .virtualTime,
            .typeSite:
            nil
        }
    }
}

/// Why a trace could not be read at all. (A damaged tail is not an error: the records
/// before it are read, and a warning says where reading stopped.)
public enum TraceReadError: Error, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case notAnEventLog(path: String)
    case unsupportedVersion(path: String, major: UInt16, minor: UInt16)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "cannot read \(path): \(reason)"
        case .notAnEventLog(let path): "\(path) is not a SignalScope event log"
        case .unsupportedVersion(let path, let major, let minor):
            "\(path) uses event log format \(major).\(minor); this SignalScope reads format \(EventLogFormat.readableVersionsDescription)"
        }
    }
}
