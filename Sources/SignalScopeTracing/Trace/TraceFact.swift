@_spi(Locking) import SignalScope

/// A fact that only the order of a log's records shows (which runs of a cold signal overlapped,
/// which subscriptions failed and how they were then), gathered while the log is read, beside
/// the trace's own fold of nodes, subscriptions and heap.
///
/// The trace records what happened; what an analysis concludes from the order of events is
/// the analysis's. Each fact is a type of the module that needs it, registered once with
/// ``TraceFacts/gather(_:)``; every trace read afterwards (a file, a recording in memory, a
/// growing log) takes it in record by record, so a log is read once whatever the analyses.
public protocol TraceFact: Sendable {
    /// The fact before any record.
    init()
    /// The kinds of records it observes; the default is every kind. A read shows a fact
    /// only these, which saves a call for each record it would ignore.
    static var follows: TraceEvent.Kinds { get }
    /// Takes in a record of a kind it ``follows``, once the trace has folded it in (`trace`
    /// is the trace as it is then: with ``Trace/Detail/liveEntities``, a subscription that
    /// ended is gone from it). It reads the trace's nodes, subscriptions and heap, not its
    /// facts (``Trace/fact(_:)``, ``Trace/restricted(to:)``): those are being changed, this
    /// one among them, and a fact does not keep the trace.
    mutating func observe(_ record: TraceRecord, in trace: Trace)
    /// Concludes, once the log is read or a view of a growing trace is taken (`trace` is the
    /// trace as it ends, read as in ``observe(_:in:)``). A growing trace finishes a copy, and
    /// observes on after it.
    mutating func finish(in trace: Trace)
    /// What of it concerns the part of the trace that `trace` keeps (``Trace/restricted(to:)``).
    func restricted(to trace: Trace) -> Self
}

extension TraceFact {
    public static var follows: TraceEvent.Kinds { .all }
}

/// The facts every trace read in this process gathers.
public enum TraceFacts {
    /// Registers `fact`, for every trace read from now on (registering one twice registers it
    /// once). An analysis module registers the facts its rules need when it loads.
    public static func gather(_ fact: any TraceFact.Type) {
        registered.withLock { facts in
            if !facts.contains(where: { ObjectIdentifier($0) == ObjectIdentifier(fact) }) { facts.append(fact) }
        }
    }

    /// The facts registered so far, in the order they were.
    public static var all: [any TraceFact.Type] { registered.withLock { $0 } }

    private static let registered = LockedValue<[any TraceFact.Type]>([])
}
