import DequeModule
import SignalScopeAnalysis
import SignalScope
import SignalScopeTracing

/// The report page of a program that still runs (`signalscope live`): the report's own page
/// and script, its data growing from the records as the program writes them. ``page()`` is the
/// page with no data yet; ``add(_:)`` turns each batch of records into a message that adds
/// their subscriptions, lanes and events to the pages; ``graphMessage(analysis:render:)``
/// draws the graph of everything so far and proves the findings, to replace the pages'.
///
/// Numbering grows and never changes: subscriptions and their lanes (one each, not
/// collapsed, as the final report's are) and events by the order the records arrive in, so a
/// page that has a number keeps it; graph nodes keep the trace's ids. Every graph message
/// carries the whole graph (its size is capped, unlike the trace's), and the page maps its
/// subscriptions onto it again.
///
/// Memory grows with what is alive and with the subscriptions made, never with the events:
/// the trace keeps live entities only, events are numbered for causes within the last
/// ``causeWindow`` of them, and a page that connects late is sent ``stateMessage()`` (every
/// lane, no past event) rather than every message since the start.
package final class LiveReport {
    private let options: HTMLReport.Options
    private var trace = Trace(growing: .liveEntities)
    private var subscriptionNumbers: [SubscriptionID: Int] = [:]
    private var subscriptionsByNode: [NodeID: [SubscriptionID]] = [:]
    private var depths: [SubscriptionID: Int] = [:]
    /// Every subscription and its lane as first sent, and the lanes that have ended: what
    /// ``stateMessage()`` sends.
    private var subscriptionValues: [JSONValue] = []
    private var laneValues: [JSONValue] = []
    private var laneEnds: [(lane: Int, time: UInt64)] = []
    private var eventCount = 0
    /// The numbers of the last ``causeWindow`` events, by sequence number; an event whose
    /// cause is older is sent with its cause unknown to the page (the final report has it).
    private var eventNumbers: [UInt64: Int] = [:]
    private var numberedSequences = Deque<UInt64>()
    /// The highest sequence number let go of: a cause at or below it will not come.
    private var forgottenSequence: UInt64?
    package static let causeWindow = 100_000
    private var origin: UInt64?
    private var duration: UInt64 = 0
    /// Records of subscriptions whose `subscribe` has not come yet, and events waiting for
    /// their cause (by its sequence number): each at most ``waitingLimit``, so that records
    /// that never come (a trace cut off) cost bounded memory.
    private var waitingForSubscription: [SubscriptionID: [TraceRecord]] = [:]
    private var waitingCount = 0
    private var waitingForCause: [UInt64: [(event: Int, how: String)]] = [:]
    private static let waitingLimit = 100_000
    /// Whether nodes or subscriptions came since the graph was last drawn.
    package private(set) var graphIsStale = false
    /// Whether records an analyzer reads (``TraceEvent/extended(_:)``: a watched object
    /// retained or released) came since the findings were last proven: the graph and its
    /// findings are then due at once, not at the next drawing.
    package private(set) var findingsAreStale = false

    /// A live report titled as `options` say, its sites linked and resolved by them.
    package init(options: HTMLReport.Options) {
        self.options = options
    }

    /// The page: the report's, with data that says it is live and holds nothing yet.
    package func page() -> String {
        let empty = JSONValue.object([
            ("format", .int(1)),
            ("title", .string(options.title)),
            ("live", .bool(true)),
            ("clock", .string("wall")),
            ("duration", .int(0)),
            ("limitations", .array([])),
            ("warnings", .array([])),
            ("findings", .array([])),
            ("nodes", .array([])),
            ("edges", .array([])),
            ("lanes", .array([])),
            ("subscriptions", .array([])),
            ("events", .array([])),
        ])
        return HTMLReport.page(title: options.title, data: Self.text(empty), graphSVG: nil)
    }

    private func elements(of trace: Trace, graph: SignalGraph) -> ReportElements {
        ReportElements(
            trace: trace, graph: graph, options: options,
            subscriptionNumber: { [unowned self] in subscriptionNumbers[$0] }, laneOf: { [unowned self] in subscriptionNumbers[$0] })
    }

    /// Takes in the records of one poll (by sequence number) and returns the message that
    /// adds what they drew to the pages, `nil` when they drew nothing:
    /// `{"kind":"timeline","duration":…,"ts":…,"subscriptions":[…],"lanes":[…],
    /// "marks":[[lane,mark],…],"ends":[[lane,time],…],"events":[…],"causes":[[event,cause,how],…]}`,
    /// each element as the report's data writes it; `ts` is the last record's timestamp, for
    /// measuring latency.
    ///
    /// A later poll can bring older records (a thread's buffer drained after another's): an
    /// event or disposal of a subscription not seen yet waits for its subscription, and an
    /// event whose cause has not come yet is sent without it (`?`), then given it in `causes`
    /// when the cause comes.
    package func add(_ records: [TraceRecord]) -> String? {
        var batch = Batch()
        for record in records {
            trace.add(record)
            take(record, into: &batch)
        }
        guard !batch.isEmpty, let last = records.last else { return nil }
        let elements = elements(of: trace, graph: SignalGraph())
        let eventNumber = { [unowned self] (sequence: UInt64) in eventNumbers[sequence] }
        return Self.text(.object([
            ("kind", .string("timeline")),
            ("duration", .int(duration)),
            ("ts", .int(last.timestamp)),
            ("subscriptions", .array(batch.subscriptions)),
            ("lanes", .array(batch.lanes)),
            ("marks", .array(batch.marks.map { .array([.int($0.lane), ReportElements.mark($0.mark, eventNumber: eventNumber)]) })),
            ("ends", .array(batch.ends.map { .array([.int($0.lane), .int($0.time)]) })),
            ("events", .array(batch.delivered.map { elements.event($0.record, time: $0.time, eventNumber: eventNumber) })),
            ("causes", .array(batch.causes.map { .array([.int($0.event), .int($0.cause), .string($0.how)]) })),
        ]))
    }

    /// What a page that connects now needs before the messages that follow: every
    /// subscription and lane so far (with the ends of those that ended), no past event, and
    /// the number the next event will have (`firstEvent`), so that numbering carries on:
    /// `{"kind":"timeline","state":true,"firstEvent":…,…}`.
    package func stateMessage() -> String {
        Self.text(.object([
            ("kind", .string("timeline")),
            ("state", .bool(true)),
            ("firstEvent", .int(eventCount)),
            ("duration", .int(duration)),
            ("ts", .int(0)),
            ("subscriptions", .array(subscriptionValues)),
            ("lanes", .array(laneValues)),
            ("marks", .array([])),
            ("ends", .array(laneEnds.map { .array([.int($0.lane), .int($0.time)]) })),
            ("events", .array([])),
            ("causes", .array([])),
        ]))
    }

    /// What one poll's records drew.
    private struct Batch {
        var subscriptions: [JSONValue] = []
        var lanes: [JSONValue] = []
        var delivered: [(record: TraceRecord, time: UInt64)] = []
        var marks: [(lane: Int, mark: TimelineModel.Mark)] = []
        var ends: [(lane: Int, time: UInt64)] = []
        var causes: [(event: Int, cause: Int, how: String)] = []

        var isEmpty: Bool { subscriptions.isEmpty && marks.isEmpty && ends.isEmpty && causes.isEmpty }
    }

    /// Numbers the event with sequence number `sequence`, letting go of the oldest number
    /// past ``causeWindow``.
    private func number(_ sequence: UInt64) -> Int {
        let number = eventCount
        eventCount += 1
        eventNumbers[sequence] = number
        numberedSequences.append(sequence)
        if numberedSequences.count > Self.causeWindow, let oldest = numberedSequences.popFirst() {
            eventNumbers[oldest] = nil
            forgottenSequence = max(forgottenSequence ?? 0, oldest)
        }
        return number
    }

    private func take(_ record: TraceRecord, into batch: inout Batch) {
        let origin = self.origin ?? record.timestamp
        self.origin = origin
        // A thread takes its sequence number and reads the clock in two steps: a record may
        // read a little earlier than the first.
        let time = record.timestamp > origin ? record.timestamp - origin : 0
        duration = max(duration, time)
        func mark(_ kind: TimelineModel.Mark.Kind, _ lane: Int, _ text: String?) {
            batch.marks.append((lane, TimelineModel.Mark(kind: kind, time: time, sequence: record.sequence, text: text)))
        }
        func lane(of id: SubscriptionID) -> Int? {
            if let lane = subscriptionNumbers[id] { return lane }
            if waitingCount < Self.waitingLimit {
                waitingForSubscription[id, default: []].append(record)
                waitingCount += 1
            }
            return nil
        }
        switch record.event {
        case .node, .nodeNamed, .edge:
            graphIsStale = true
        case .subscribe(let id, let node, let parent, _, _):
            // Numbered and drawn now, together (a lane's number is its place on the page): a
            // subscription that ends within this poll leaves the live trace.
            guard let subscription = trace.subscriptions[id] else { break }
            graphIsStale = true
            subscriptionNumbers[id] = subscriptionNumbers.count
            subscriptionsByNode[node, default: []].append(id)
            let depth = parent.flatMap { depths[$0] }.map { $0 + 1 } ?? 0
            depths[id] = depth
            let elements = elements(of: trace, graph: SignalGraph())
            let lane = TimelineModel.Lane(
                title: TimelineModel.laneTitle(of: subscription.node, in: trace), node: subscription.node,
                subscriptionSite: subscription.site, depth: depth, start: time, subscriptions: [id])
            let (subscriptionValue, laneValue) = (elements.subscription(subscription), elements.lane(lane, eventNumber: { _ in nil }))
            batch.subscriptions.append(subscriptionValue)
            batch.lanes.append(laneValue)
            subscriptionValues.append(subscriptionValue)
            laneValues.append(laneValue)
            if let waiting = waitingForSubscription.removeValue(forKey: id) {
                waitingCount -= waiting.count
                for record in waiting { take(record, into: &batch) }
            }
        case .next(let id, _), .error(let id, _), .completed(let id):
            guard let lane = lane(of: id) else { break }
            let number = number(record.sequence)
            batch.delivered.append((record, time))
            if let cause = record.cause, eventNumbers[cause.sequence] == nil, cause.sequence > forgottenSequence ?? 0,
                waitingForCause.count < Self.waitingLimit
            {
                waitingForCause[cause.sequence, default: []].append((number, cause.kind == .during ? "d" : "s"))
            }
            for effect in waitingForCause.removeValue(forKey: record.sequence) ?? [] {
                batch.causes.append((effect.event, number, effect.how))
            }
            switch record.event {
            case .next(_, let value): mark(.next, lane, value)
            case .error(_, let description): mark(.error, lane, description)
            default: mark(.completed, lane, nil)
            }
        case .disposed(let id, let cause):
            guard let lane = lane(of: id) else { break }
            if cause != .terminal { mark(.disposed, lane, "\(cause)") }
            batch.ends.append((lane, time))
            laneEnds.append((lane, time))
        case .extended:
            findingsAreStale = true
        default:
            break
        }
    }

    /// The graph of everything so far and the findings `analysis` proves of it, drawn by
    /// `render` (DOT in, SVG out; `nil` when it could not draw):
    /// `{"kind":"graph","nodes":[…],"edges":[…],"findings":[…],"limitations":[…],"svg":…}`.
    package func graphMessage(analysis: (Trace) -> AnalysisReport, render: (String) -> String?) -> String {
        graphIsStale = false
        findingsAreStale = false
        let soFar = trace.soFar
        let report = analysis(soFar)
        let graph = SignalGraph(trace: soFar, report: report, options: .init(numbersNodes: false))
        let svg = render(DOTWriter.dot(graph)).map(HTMLReport.inlineSVG)
        let elements = elements(of: soFar, graph: graph)
        return Self.text(.object([
            ("kind", .string("graph")),
            ("nodes", .array(graph.nodes.map { elements.node($0, subscriptionsByNode: subscriptionsByNode) })),
            ("edges", elements.edges()),
            ("findings", .array(report.findings.map(elements.finding))),
            ("limitations", .array(report.limitations.map(JSONValue.string))),
            ("svg", .optional(svg)),
        ]))
    }

    private static func text(_ value: JSONValue) -> String {
        var out = JSONBuffer()
        value.write(into: &out)
        return String(decoding: out.bytes, as: UTF8.self)
    }
}
