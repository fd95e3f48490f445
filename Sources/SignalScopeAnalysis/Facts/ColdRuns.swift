import SignalScope
import SignalScopeTracing

/// Cold signals' runs that may have repeated one another, as `repeated-cold-subscription`
/// needs them: for each cold node (its traits say it runs the user's work again for every
/// subscription: a creation block, `defer`, `interval`), its runs that overlapped in time a
/// run for another subscription made by user code (retries are one), and, of those that did
/// not, one that did work for each site user code subscribed from; with whether each did
/// work of its own. Gathered while the log is read (``TraceFact``), whatever it keeps.
package struct ColdRuns: TraceFact {
    /// One run of a cold signal's work: a subscription to a cold node (its creation block, a
    /// `defer` factory, an `interval` timer ran for it) that may have repeated another's: it
    /// overlapped in time a run for another subscription made by user code, or it did work of
    /// its own for a subscription user code made at a site of its own.
    package struct Run: Sendable, Hashable {
        /// The subscription to the cold node.
        package let subscription: SubscriptionID
        /// The subscription user code made that led to it.
        package let root: SubscriptionID
        /// Where user code made the root.
        package let rootSite: TraceSite?
        /// The sequence numbers of its subscription and of its end (`nil`: live at the end).
        package let start: UInt64
        package let end: UInt64?
        /// Whether it did work of its own: the run's subscription, or one its creation block
        /// made to a signal made for this run, received an event its creation block (or an
        /// action the block scheduled) sent, which no delivery inside the run caused (a value
        /// the block produced itself, a response, a timer's tick), rather than one forwarded
        /// from a source the run only subscribed to, or sent from outside any creation block
        /// (a control's action reaching each of its subscribers).
        package let didWork: Bool
    }

    /// The runs that may have repeated another's, by cold node; complete once the trace is
    /// read.
    package private(set) var repeated: [NodeID: [Run]] = [:]
    private var tracker = ColdRunTracker()
    /// The subscription user code made that led to each subscription (itself, for one user
    /// code made), while the trace keeps it: forgotten as the trace forgets it.
    private var roots: [SubscriptionID: SubscriptionID] = [:]

    package init() {}

    package static var follows: TraceEvent.Kinds { [.node, .subscribe, .next, .error, .completed, .disposed] }

    package mutating func observe(_ record: TraceRecord, in trace: Trace) {
        switch record.event {
        case .node(let id, _, _, _, _, let traits):
            tracker.nodeMade(id, isCold: traits.contains(.cold), at: record.sequence)
        case .subscribe(let id, let node, let parent, _, _):
            let root = parent.map { roots[$0] ?? $0 } ?? id
            roots[id] = root
            tracker.subscribed(id, to: node, parent: parent, root: root, rootSite: trace.subscriptions[root]?.site, at: record.sequence)
        case .next(let id, _), .error(let id, _), .completed(let id):
            tracker.delivered(record, to: id)
        case .disposed(let id, _):
            tracker.ended(id, at: record.sequence)
            if trace.subscriptions[id] == nil { roots.removeValue(forKey: id) }
        default:
            break
        }
    }

    package mutating func finish(in trace: Trace) {
        tracker.finish(aliveAtEnd: { trace.subscriptions[$0]?.retainCountAtEnd != nil })
        repeated = tracker.candidates
        tracker = ColdRunTracker()
        roots = [:]
    }

    package func restricted(to trace: Trace) -> ColdRuns {
        var copy = self
        copy.repeated = repeated.filter { trace.nodes[$0.key] != nil }
        return copy
    }
}

/// Follows cold signals' runs while a log is read, so that `repeated-cold-subscription` can
/// speak only with evidence: runs for two consumers, each doing work of its own, where a
/// consumer is a user subscription made at a site of its own, or one made from the same site
/// while an earlier run from it was still alive. Memory grows with what is alive and with
/// the sites: of the runs that never overlapped another, one that did work is kept for each
/// of the first few sites its node was subscribed from, the rest forgotten when they end.
private struct ColdRunTracker {
    private struct Run {
        let node: NodeID
        let root: SubscriptionID
        let rootSite: TraceSite?
        let start: UInt64
        /// The sequence number of its latest event (its subscription or a delivery in it): a
        /// run whose subscription was freed without a disposal (nothing held its subscriber)
        /// ended somewhere after it, at a moment the log does not say.
        var lastSeen: UInt64
        var didWork = false
        var overlapped = false
    }

    private var open: [SubscriptionID: Run] = [:]
    private var openByNode: [NodeID: Set<SubscriptionID>] = [:]
    /// Live subscriptions' parents (`nil` for one user code made); a subscription absent here
    /// ended or was never seen.
    private var parents: [SubscriptionID: SubscriptionID?] = [:]
    /// For a live subscription whose events are work of some runs: those runs (its own, if
    /// it is one, and those of its ancestors for which its signal was made during the run).
    private var workFor: [SubscriptionID: [SubscriptionID]] = [:]
    /// When each node was made, by sequence number, and whether it is cold (its record says,
    /// as the trace's node does: looked up there, the node was copied, strings and parents).
    private var nodes: [NodeID: (made: UInt64, isCold: Bool)] = [:]
    /// The latest deliveries by sequence number, to tell which subscription a cause was
    /// delivered to. A cause older than the window is unknown: no evidence either way.
    private var deliveries = [(sequence: UInt64, subscription: SubscriptionID)](repeating: (0, .untraced), count: 1 << 16)
    private(set) var candidates: [NodeID: [ColdRuns.Run]] = [:]
    /// For each node, a finished run that did work for each site its root was made at (at
    /// most ``sitesKept``), that overlapped no other: the runs of consumers one after the other.
    private var finishedBySite: [NodeID: [TraceSite?: ColdRuns.Run]] = [:]
    /// Sites kept per node: evidence needs two, and a path names at most eight.
    private static let sitesKept = 8

    /// How far up a subscription tree the tracker looks (crafted logs may chain without end).
    private static let depthLimit = 64

    mutating func nodeMade(_ node: NodeID, isCold: Bool, at sequence: UInt64) {
        nodes[node] = (sequence, isCold)
    }

    /// Subscription `id` to `node`, which the log may not have seen made (then neither cold
    /// nor new to any run).
    mutating func subscribed(
        _ id: SubscriptionID, to node: NodeID, parent: SubscriptionID?, root: SubscriptionID, rootSite: TraceSite?, at sequence: UInt64
    ) {
        parents[id] = .some(parent)
        var runs: [SubscriptionID] = []
        let made = nodes[node]
        if made?.isCold == true {
            let run = Run(node: node, root: root, rootSite: rootSite, start: sequence, lastSeen: sequence)
            for other in openByNode[node] ?? [] where open[other]?.root != root {
                open[other]?.overlapped = true
                open[id, default: run].overlapped = true
            }
            if open[id] == nil { open[id] = run }
            openByNode[node, default: []].insert(id)
            runs.append(id)
        }
        // Runs above it for which its signal is new: what that signal does is theirs.
        if let made = made?.made {
            var current = parent
            for _ in 0..<Self.depthLimit {
                guard let ancestor = current else { break }
                if let run = open[ancestor], run.start < made { runs.append(ancestor) }
                guard let next = parents[ancestor] else { break }
                current = next
            }
        }
        if !runs.isEmpty { workFor[id] = runs }
    }

    /// An event (`record`) delivered to subscription `id`.
    mutating func delivered(_ record: TraceRecord, to id: SubscriptionID) {
        let sequence = record.sequence
        deliveries[Int(sequence & UInt64(deliveries.count - 1))] = (sequence, id)
        guard let runs = workFor[id] else { return }
        for run in runs { open[run]?.lastSeen = sequence }
        guard isOwnWork(record, of: id) else { return }
        for run in runs { open[run]?.didWork = true }
    }

    /// Whether an event delivered to `id` is work a run did: sent in a cold signal's
    /// creation block or an action it scheduled (a value it produced, a timer's tick, a
    /// response), and not forwarded from inside `id`'s own tree (its cause went to a
    /// subscription that is not `id` or its descendant). An event from outside any creation
    /// block (a control's action, a notification, a value user code sent) is one external
    /// event, whatever number of subscribers it reaches. Unknown (a cause out of the
    /// window, a broken ancestry): not.
    private func isOwnWork(_ record: TraceRecord, of id: SubscriptionID) -> Bool {
        guard record.inCreationBlock else { return false }
        guard let cause = record.cause else { return true }
        let slot = deliveries[Int(cause.sequence & UInt64(deliveries.count - 1))]
        guard slot.sequence == cause.sequence else { return false }
        var current = slot.subscription
        for _ in 0..<Self.depthLimit {
            if current == id { return false }
            guard let parent = parents[current] else { return false }
            guard let next = parent else { return true }
            current = next
        }
        return false
    }

    mutating func ended(_ id: SubscriptionID, at sequence: UInt64) {
        parents.removeValue(forKey: id)
        workFor.removeValue(forKey: id)
        guard let run = open.removeValue(forKey: id) else { return }
        openByNode[run.node]?.remove(id)
        close(id, run, end: sequence)
    }

    /// Closes the runs still open: live at the end of the log when `aliveAtEnd` says their
    /// subscription is (the closing snapshot found it), else ended at their latest event,
    /// since nothing proves they lasted longer (a subscription freed without a disposal).
    mutating func finish(aliveAtEnd: (SubscriptionID) -> Bool) {
        for (id, run) in open.sorted(by: { $0.key < $1.key }) { close(id, run, end: aliveAtEnd(id) ? nil : run.lastSeen) }
        for (node, bySite) in finishedBySite {
            candidates[node, default: []] += bySite.values.sorted { $0.start < $1.start }
        }
        finishedBySite = [:]
        open = [:]
        openByNode = [:]
        parents = [:]
        workFor = [:]
    }

    /// Keeps a run that may be evidence: one that overlapped another, or the first that did
    /// work for its site; forgets the rest.
    private mutating func close(_ id: SubscriptionID, _ run: Run, end: UInt64?) {
        if run.overlapped { return keep(id, run, end: end) }
        guard run.didWork, run.rootSite != nil else { return }
        var bySite = finishedBySite[run.node, default: [:]]
        guard bySite[run.rootSite] == nil, bySite.count < Self.sitesKept else { return }
        bySite[run.rootSite] = ColdRuns.Run(
            subscription: id, root: run.root, rootSite: run.rootSite, start: run.start, end: end, didWork: true)
        finishedBySite[run.node] = bySite
    }

    private mutating func keep(_ id: SubscriptionID, _ run: Run, end: UInt64?) {
        candidates[run.node, default: []].append(ColdRuns.Run(
            subscription: id, root: run.root, rootSite: run.rootSite, start: run.start, end: end, didWork: run.didWork))
    }
}
