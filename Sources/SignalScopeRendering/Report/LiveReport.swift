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
/// page that has a number keeps it. Graph node ids are the graph's own, which a new node can
/// move: every graph message carries the whole graph (its size is capped, unlike the trace's),
/// and the page maps its subscriptions onto it again.
public final class LiveReport {
    private let options: HTMLReport.Options
    private var trace = Trace(growing: .everything)
    private var subscriptionNumbers: [SubscriptionID: Int] = [:]
    private var subscriptionsByNode: [NodeID: [SubscriptionID]] = [:]
    private var depths: [SubscriptionID: Int] = [:]
    private var eventNumbers: [UInt64: Int] = [:]
    private var origin: UInt64?
    private var duration: UInt64 = 0
    /// Whether nodes or subscriptions came since the graph was last drawn.
    public private(set) var graphIsStale = false
    /// Whether records an analyzer reads (``TraceEvent/extended(_:)``: a watched object
    /// retained or released) came since the findings were last proven: the graph and its
    /// findings are then due at once, not at the next drawing.
    public private(set) var findingsAreStale = false

    /// A live report titled as `options` say, its sites linked and resolved by them.
    public init(options: HTMLReport.Options) {
        self.options = options
    }

    /// The page: the report's, with data that says it is live and holds nothing yet.
    public func page() -> String {
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
    /// "marks":[[lane,mark],…],"ends":[[lane,time],…],"events":[…]}`, each element as the
    /// report's data writes it; `ts` is the last record's timestamp, for measuring latency.
    public func add(_ records: [TraceRecord]) -> String? {
        var subscribed: [(id: SubscriptionID, time: UInt64)] = []
        var delivered: [(record: TraceRecord, time: UInt64)] = []
        var marks: [(lane: Int, mark: TimelineModel.Mark)] = []
        var ends: [JSONValue] = []
        for record in records {
            trace.add(record)
            let origin = self.origin ?? record.timestamp
            self.origin = origin
            // A thread takes its sequence number and reads the clock in two steps: a record
            // may read a little earlier than the first.
            let time = record.timestamp > origin ? record.timestamp - origin : 0
            duration = max(duration, time)
            func mark(_ kind: TimelineModel.Mark.Kind, _ lane: Int, _ text: String?) {
                marks.append((lane, TimelineModel.Mark(kind: kind, time: time, sequence: record.sequence, text: text)))
            }
            switch record.event {
            case .node, .nodeNamed, .edge:
                graphIsStale = true
            case .subscribe(let id, let node, let parent, _, _):
                graphIsStale = true
                subscriptionNumbers[id] = subscriptionNumbers.count
                subscriptionsByNode[node, default: []].append(id)
                depths[id] = parent.flatMap { depths[$0] }.map { $0 + 1 } ?? 0
                subscribed.append((id, time))
            case .next(let id, _), .error(let id, _), .completed(let id):
                guard let lane = subscriptionNumbers[id] else { break }
                eventNumbers[record.sequence] = eventNumbers.count
                delivered.append((record, time))
                switch record.event {
                case .next(_, let value): mark(.next, lane, value)
                case .error(_, let description): mark(.error, lane, description)
                default: mark(.completed, lane, nil)
                }
            case .disposed(let id, let cause):
                guard let lane = subscriptionNumbers[id] else { break }
                if cause != .terminal { mark(.disposed, lane, "\(cause)") }
                ends.append(.array([.int(lane), .int(time)]))
            case .extended:
                findingsAreStale = true
            default:
                break
            }
        }
        guard !subscribed.isEmpty || !marks.isEmpty || !ends.isEmpty, let last = records.last else { return nil }
        let elements = elements(of: trace, graph: SignalGraph())
        let eventNumber = { [unowned self] (sequence: UInt64) in eventNumbers[sequence] }
        var subscriptions: [JSONValue] = [], lanes: [JSONValue] = []
        for (id, time) in subscribed {
            guard let subscription = trace.subscriptions[id], let depth = depths[id] else { continue }
            subscriptions.append(elements.subscription(subscription))
            let lane = TimelineModel.Lane(
                title: TimelineModel.laneTitle(of: subscription.node, in: trace), node: subscription.node,
                subscriptionSite: subscription.site, depth: depth, start: time, subscriptions: [id])
            lanes.append(elements.lane(lane, eventNumber: eventNumber))
        }
        return Self.text(.object([
            ("kind", .string("timeline")),
            ("duration", .int(duration)),
            ("ts", .int(last.timestamp)),
            ("subscriptions", .array(subscriptions)),
            ("lanes", .array(lanes)),
            ("marks", .array(marks.map { .array([.int($0.lane), ReportElements.mark($0.mark, eventNumber: eventNumber)]) })),
            ("ends", .array(ends)),
            ("events", .array(delivered.map { elements.event($0.record, time: $0.time, eventNumber: eventNumber) })),
        ]))
    }

    /// The graph of everything so far and the findings `analysis` proves of it, drawn by
    /// `render` (DOT in, SVG out; `nil` when it could not draw):
    /// `{"kind":"graph","nodes":[…],"edges":[…],"findings":[…],"limitations":[…],"svg":…}`.
    public func graphMessage(analysis: (Trace) -> AnalysisReport, render: (String) -> String?) -> String {
        graphIsStale = false
        findingsAreStale = false
        let soFar = trace.soFar
        let report = analysis(soFar)
        let graph = SignalGraph(trace: soFar, report: report)
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
