import SignalScopeAnalysis
import SignalScope
import SignalScopeTracing

/// What a timeline shows, whatever draws it (the SVG marble diagram, the HTML report): the
/// lanes, their events on one clock, identical lanes collapsed.
///
/// The clock is the trace's wall clock, from the first event drawn; or, when the program
/// ran actions on a `TestScheduler`, the test's virtual time (each record at the virtual
/// time last reported before it), so that a `throttle(0.3)` under test spans 0.3 s.
public struct TimelineModel: Sendable {
    /// What a lane stands for.
    public enum Lanes: String, Sendable, CaseIterable {
        case subscriptions, nodes
    }

    /// What the timeline shows.
    public struct Options: Sendable {
        /// One lane per subscription (the default) or per node.
        public var lanes: Lanes = .subscriptions
        /// Only the lanes of nodes whose name, user name or site contains this text.
        public var node: String?
        /// Merge lanes that show the same thing (same node, depth, events and ending) into
        /// one lane with a count.
        public var collapse = true

        /// Creates options; the defaults are what `signalscope timeline` uses.
        public init(lanes: Lanes = .subscriptions, node: String? = nil, collapse: Bool = true) {
            self.lanes = lanes
            self.node = node
            self.collapse = collapse
        }
    }

    /// One event on a lane.
    public struct Mark: Sendable, Hashable {
        /// What happened.
        public enum Kind: String, Sendable, Hashable {
            case next, error, completed, disposed
        }

        public let kind: Kind
        /// Nanoseconds since the timeline's start, on its clock.
        public internal(set) var time: UInt64
        /// The record's sequence number, which causes name.
        public let sequence: UInt64
        /// The value's or error's summary, or why it was disposed.
        public let text: String?
    }

    /// One lane: a subscription, a node's subscriptions, or several identical lanes.
    public struct Lane: Sendable {
        /// The node's name (given, or the property holding it) or operator, then where the
        /// node was created, as the graph names it.
        public let title: String
        /// The node the lane's subscriptions are to.
        public let node: NodeID
        /// Where the first of them was subscribed.
        public let subscriptionSite: TraceSite?
        /// Depth in the subscription tree (0: made by user code).
        public internal(set) var depth: Int
        /// When the lane begins, on the timeline's clock.
        public internal(set) var start: UInt64
        /// When it ended, or `nil` if it was still live at the end.
        public internal(set) var end: UInt64?
        public internal(set) var marks: [Mark] = []
        /// Whether a finding names one of its subscriptions.
        public internal(set) var isHighlighted = false
        /// The subscriptions it stands for (several when collapsed, or per node).
        public internal(set) var subscriptions: [SubscriptionID]
        /// How many identical lanes it stands for.
        public internal(set) var count = 1
    }

    /// The lanes, in subscription-tree order (a subscriber, then what it subscribed to).
    public let lanes: [Lane]
    /// From the start to the last event, in nanoseconds on the clock.
    public let duration: UInt64
    /// Whether the clock is a `TestScheduler`'s virtual time.
    public let usesVirtualTime: Bool
    /// The clock, and where on it the timeline starts.
    private let clock: Clock
    private let origin: UInt64

    /// Prepares the timeline of `trace` (read with `.everything`), highlighting the lanes
    /// that `report`'s findings name.
    public init(trace: Trace, report: AnalysisReport? = nil, options: Options = Options()) {
        usesVirtualTime = trace.usesVirtualTime
        let clock = Clock(trace)
        let named = Set(report?.findings.flatMap(\.entities) ?? [])
        let depths = Self.treeOrder(trace)
        var bySubscription: [SubscriptionID: Lane] = [:]
        var order: [SubscriptionID] = []
        var titles: [NodeID: String] = [:]
        func title(of node: NodeID) -> String {
            if let known = titles[node] { return known }
            let title = Self.laneTitle(of: node, in: trace)
            titles[node] = title
            return title
        }
        for record in trace.records {
            guard let id = record.event.subscription, let info = trace.subscriptions[id], let depth = depths[id] else { continue }
            let time = clock.time(of: record)
            if bySubscription[id] == nil {
                if let filter = options.node {
                    guard let node = trace.nodes[info.node],
                        node.name.contains(filter) || trace.displayName(of: node.id)?.contains(filter) == true
                            || node.site.description.contains(filter)
                    else { continue }
                }
                bySubscription[id] = Lane(
                    title: title(of: info.node), node: info.node, subscriptionSite: info.site, depth: depth.depth,
                    start: time, isHighlighted: named.contains(.subscription(id)), subscriptions: [id])
                order.append(id)
            }
            func mark(_ kind: Mark.Kind, _ text: String?) {
                bySubscription[id]?.marks.append(Mark(kind: kind, time: time, sequence: record.sequence, text: text))
            }
            switch record.event {
            case .next(_, let value): mark(.next, value)
            case .completed: mark(.completed, nil)
            case .error(_, let description): mark(.error, description)
            case .disposed(_, let cause):
                if cause != .terminal { mark(.disposed, "\(cause)") }
                bySubscription[id]?.end = time
            default: break
            }
        }
        order.sort { (depths[$0]?.position ?? 0) < (depths[$1]?.position ?? 0) }
        var lanes = order.compactMap { bySubscription[$0] }
        if options.lanes == .nodes { lanes = Self.mergedByNode(lanes) }
        if options.collapse { lanes = Self.collapsed(lanes) }
        // A thread takes a sequence number and reads the clock in two steps, so a lane's
        // marks need not come after its start: the timeline starts at the earliest of any of them.
        let start = lanes.flatMap { [$0.start] + $0.marks.map(\.time) }.min() ?? 0
        for index in lanes.indices {
            lanes[index].start -= start
            lanes[index].end = lanes[index].end.map { max($0, start) - start }
            for mark in lanes[index].marks.indices { lanes[index].marks[mark].time -= start }
        }
        self.lanes = lanes
        self.clock = clock
        origin = start
        duration = self.lanes.map { lane in max(lane.end ?? 0, lane.marks.map(\.time).max() ?? 0, lane.start) }.max() ?? 0
    }

    /// When `record` happened on the timeline's clock, from its start (0 for a record
    /// before it): for events of lanes collapsed into others, or not drawn at all.
    public func time(of record: TraceRecord) -> UInt64 {
        max(clock.time(of: record), origin) - origin
    }

    /// A lane's title: the node's name as the graph titles it, then the file and line that
    /// made it.
    static func laneTitle(of node: NodeID, in trace: Trace) -> String {
        let info = trace.nodes[node]
        let name = info.map { trace.title(of: $0) } ?? "?"
        let made = info.map { "\($0.site.file.split(separator: "/").last ?? ""):\($0.site.line)" } ?? "?"
        return "\(name) · \(made)"
    }

    /// Each record's time: its timestamp, or the virtual time last reported on its thread
    /// before it. A `TestScheduler` runs its actions on the thread that advances it, so
    /// that thread's reports are the clock of what those actions do, whatever other
    /// threads' schedulers say meanwhile.
    private struct Clock: Sendable {
        /// Per thread, the virtual times reported, by sequence number; `nil`: wall clock.
        private let reported: [UInt32: [(sequence: UInt64, time: UInt64)]]?
        private let earliest: UInt64

        init(_ trace: Trace) {
            guard trace.usesVirtualTime else {
                reported = nil
                earliest = 0
                return
            }
            var reported: [UInt32: [(sequence: UInt64, time: UInt64)]] = [:]
            for record in trace.records {
                if case .virtualTime(let nanoseconds) = record.event {
                    // Virtual time may start before 2001; the offset keeps it unsigned and in order.
                    reported[record.thread, default: []].append((record.sequence, UInt64(bitPattern: nanoseconds) ^ (1 << 63)))
                }
            }
            self.reported = reported
            earliest = reported.values.compactMap(\.first?.time).min() ?? 0
        }

        func time(of record: TraceRecord) -> UInt64 {
            guard let reported else { return record.timestamp }
            guard let times = reported[record.thread] else { return earliest }
            var low = 0, high = times.count
            while low < high {
                let middle = (low + high) / 2
                if times[middle].sequence <= record.sequence { low = middle + 1 } else { high = middle }
            }
            return times[max(low - 1, 0)].time
        }
    }

    /// Each subscription's depth and place in a depth-first walk of the subscription tree
    /// (downstream first, then what it subscribed to), so lanes read from the subscriber up.
    private static func treeOrder(_ trace: Trace) -> [SubscriptionID: (depth: Int, position: Int)] {
        var children: [SubscriptionID: [SubscriptionID]] = [:]
        var roots: [SubscriptionID] = []
        for subscription in trace.subscriptions.values.sorted(by: { $0.id < $1.id }) {
            if let parent = subscription.parent, trace.subscriptions[parent] != nil {
                children[parent, default: []].append(subscription.id)
            } else {
                roots.append(subscription.id)
            }
        }
        var result: [SubscriptionID: (Int, Int)] = [:]
        var pending = roots.reversed().map { ($0, 0) }
        while let (id, depth) = pending.popLast() {
            result[id] = (depth, result.count)
            pending += (children[id] ?? []).reversed().map { ($0, depth + 1) }
        }
        return result
    }

    private static func mergedByNode(_ lanes: [Lane]) -> [Lane] {
        var merged: [NodeID: Lane] = [:]
        var nodeOrder: [NodeID] = []
        for lane in lanes {
            if var existing = merged[lane.node] {
                existing.marks = (existing.marks + lane.marks).sorted { $0.sequence < $1.sequence }
                existing.end = existing.end.flatMap { end in lane.end.map { max(end, $0) } }
                existing.isHighlighted = existing.isHighlighted || lane.isHighlighted
                existing.subscriptions += lane.subscriptions
                merged[lane.node] = existing
            } else {
                var first = lane
                first.depth = 0
                merged[lane.node] = first
                nodeOrder.append(lane.node)
            }
        }
        return nodeOrder.compactMap { merged[$0] }
    }

    /// Merges lanes that show the same thing: same title and depth, the same events in the
    /// same order with the same values, ended or not alike, highlighted alike. The first
    /// stands for all, with a count.
    private static func collapsed(_ lanes: [Lane]) -> [Lane] {
        var result: [Lane] = []
        var index: [String: Int] = [:]
        for lane in lanes {
            var key = "\(lane.title)|\(lane.depth)|\(lane.end == nil)|\(lane.isHighlighted)"
            for mark in lane.marks { key += "|\(mark.kind.rawValue):\(mark.text ?? "")" }
            if let existing = index[key] {
                result[existing].count += 1
                result[existing].subscriptions += lane.subscriptions
            } else {
                index[key] = result.count
                result.append(lane)
            }
        }
        return result
    }
}
