import SignalScopeAnalysis
import SignalScope
import SignalScopeTracing

/// The parts of the report's data (docs/rendering.md, "The report's data") in the one shape
/// the page reads: sites, graph nodes and edges, findings, lanes, subscriptions and events.
/// The whole report (``ReportData``) and the live page's updates (``LiveReport``) write them
/// here alike, each in its own numbering of subscriptions, lanes and events.
struct ReportElements {
    let trace: Trace
    let graph: SignalGraph
    let options: HTMLReport.Options
    /// The number the data gives a subscription, and the lane that draws it.
    let subscriptionNumber: (SubscriptionID) -> Int?
    let laneOf: (SubscriptionID) -> Int?
    /// The graph node each trace entity is drawn in, and each graph id before numbering.
    private var graphNode: [TraceEntity: String] = [:]
    private var graphByTraceID: [String: String] = [:]
    /// What a library calls each node and subscriber it described (read from the trace once).
    private let libraryTypes: [TraceEntity: LibraryType]

    init(
        trace: Trace, graph: SignalGraph, options: HTMLReport.Options,
        subscriptionNumber: @escaping (SubscriptionID) -> Int?, laneOf: @escaping (SubscriptionID) -> Int?
    ) {
        self.trace = trace
        self.graph = graph
        self.options = options
        self.subscriptionNumber = subscriptionNumber
        self.laneOf = laneOf
        libraryTypes = trace.libraryTypes
        for node in graph.nodes {
            for entity in node.entities {
                graphNode[entity] = node.id
                graphByTraceID[GraphBuilder.id(entity)] = node.id
            }
        }
    }

    /// The graph node that shows `entity`: its own, or, for a subscription an operator
    /// made, the operator's (as the graph draws it).
    func graphID(of entity: TraceEntity) -> String? {
        if let id = graphNode[entity] { return id }
        guard case .subscription(let id) = entity else { return nil }
        return graphByTraceID[GraphBuilder.graphID(of: id, in: trace)]
    }

    private func numbers(_ subscriptions: [SubscriptionID]) -> JSONValue {
        .array(subscriptions.compactMap(subscriptionNumber).map(JSONValue.int))
    }

    private func lanes(of subscriptions: [SubscriptionID]) -> JSONValue {
        .array(Set(subscriptions.compactMap(laneOf)).sorted().map(JSONValue.int))
    }

    func finding(_ finding: Finding) -> JSONValue {
        let marks = FindingMarks(finding, graphID: graphID(of:))
        let subscriptions = finding.entities.compactMap { entity -> SubscriptionID? in
            if case .subscription(let id) = entity { id } else { nil }
        }
        let edges = graph.edges.enumerated().filter { marks.contains(edgeFrom: $1.from, to: $1.to) }
        return .object([
            ("rule", .string(finding.rule.rawValue)),
            ("severity", .string(finding.severity.rawValue)),
            ("message", .string(finding.message)),
            ("site", site(finding.location)),
            ("path", .array(finding.steps.map { step in .string(step.phrased(site: sitePath)) })),
            ("steps", .array(finding.steps.map(stepSegments))),
            ("suspect", .array(finding.steps.indices.filter { finding.steps[$0].mark == .suspect }.map { .number(String($0)) })),
            ("hint", .string(finding.hint)),
            ("baseline", .bool(options.baseline.contains(finding.fingerprint))),
            ("nodes", .array(graph.nodes.map(\.id).filter(marks.nodes.contains).map(JSONValue.string))),
            ("edges", .array(edges.map { .string("e\($0.offset + 1)") })),
            ("lanes", lanes(of: subscriptions)),
        ])
    }

    /// A step as the report links it: runs of its words, each name of a node, subscription or
    /// object with the graph node that draws it (`[text, node]`; `null` for words, or for what
    /// the graph does not draw).
    private func stepSegments(_ step: FindingStep) -> JSONValue {
        .array(step.parts.map { part in
            switch part {
            case .text(let text): .array([.string(text), .null])
            case .site(let site): .array([.string(sitePath(site)), .null])
            case .name(let name, let entity): .array([.string(name), graphID(of: entity).map(JSONValue.string) ?? .null])
            }
        })
    }

    /// A graph node with its details; `subscriptionsByNode` is the trace's subscriptions
    /// grouped by the node they are to, in id order (built once for all nodes).
    func node(_ node: SignalGraph.Node, subscriptionsByNode: [NodeID: [SubscriptionID]]) -> JSONValue {
        let details = NodeDetails(node: node, trace: trace, subscriptionsByNode: subscriptionsByNode)
        return .object([
            ("id", .string(node.id)),
            ("kind", .string(node.kind.description)),
            // Its type in its library's words, and the part it plays there.
            ("library", node.entities.lazy.compactMap { libraryTypes[$0] }.first.map { type in
                JSONValue.object([("name", .string(type.name)), ("role", .string(type.role.rawValue))])
            } ?? .null),
            ("title", .string(node.title)),
            ("state", .string(node.state.description)),
            ("count", .int(node.count)),
            ("rule", .optional(node.rule?.rawValue)),
            ("site", node.site.map(site) ?? .null),
            ("retainCount", details.retainCount.map(JSONValue.int) ?? .null),
            ("holders", .array(details.holders.map(JSONValue.string))),
            ("values", .array(details.values.map(JSONValue.string))),
            ("eventCount", .int(details.eventCount)),
            ("subscriptions", numbers(details.subscriptions)),
            ("lanes", lanes(of: details.subscriptions)),
        ])
    }

    /// The graph's edges, each with the id the SVG gives it.
    func edges() -> JSONValue {
        .array(graph.edges.enumerated().map { index, edge in
            .object([("id", .string("e\(index + 1)")), ("from", .string(edge.from)), ("to", .string(edge.to)), ("style", .string(edge.style.rawValue))])
        })
    }

    /// A lane; `eventNumber` numbers the events its marks are (a disposal is none).
    func lane(_ lane: TimelineModel.Lane, eventNumber: (UInt64) -> Int?) -> JSONValue {
        .object([
            ("title", .string(lane.title)),
            ("node", .optional(graphID(of: .node(lane.node)))),
            ("depth", .int(lane.depth)),
            ("start", .int(lane.start)),
            ("end", lane.end.map(JSONValue.int) ?? .null),
            ("count", .int(lane.count)),
            ("highlighted", .bool(lane.isHighlighted)),
            ("subscribedAt", lane.subscriptionSite.map(site) ?? .null),
            ("subscriptions", numbers(lane.subscriptions)),
            ("marks", .array(lane.marks.map { Self.mark($0, eventNumber: eventNumber) })),
        ])
    }

    /// [kind, time, event number (null for a disposal), text]: n(ext), e(rror), c(ompleted),
    /// d(isposed).
    static func mark(_ mark: TimelineModel.Mark, eventNumber: (UInt64) -> Int?) -> JSONValue {
        .array([
            .string(String(mark.kind.rawValue.prefix(1))), .int(mark.time),
            eventNumber(mark.sequence).map(JSONValue.int) ?? .null, .optional(mark.text),
        ])
    }

    /// A subscription: its lane (the collapsed lane that stands for it, if any), node and
    /// sites, so that each step of a causal chain can be named.
    func subscription(_ subscription: Trace.Subscription) -> JSONValue {
        let node = trace.nodes[subscription.node]
        return .object([
            ("lane", laneOf(subscription.id).map(JSONValue.int) ?? .null),
            ("node", .optional(graphID(of: .node(subscription.node)))),
            ("title", .string(node.map { trace.title(of: $0) } ?? "subscription")),
            ("nodeKind", .string(node?.kind.rawValue ?? "signal")),
            ("created", node.map { site($0.site) } ?? .null),
            ("subscribedAt", site(subscription.site)),
        ])
    }

    /// A delivered event: [subscription, kind, time, text, the number of the event that
    /// caused it (null: none), how (d during, s scheduled, "" none recorded, ? recorded but
    /// not among the data's events)].
    func event(_ record: TraceRecord, time: UInt64, eventNumber: (UInt64) -> Int?) -> JSONValue {
        let (kind, text): (String, String?) =
            switch record.event {
            case .next(_, let value): ("n", value)
            case .error(_, let description): ("e", description)
            default: ("c", nil)
            }
        let cause = record.cause.flatMap { eventNumber($0.sequence) }
        return .array([
            record.event.subscription.flatMap(subscriptionNumber).map(JSONValue.int) ?? .null, .string(kind),
            .int(time), .optional(text), cause.map(JSONValue.int) ?? .null,
            .string(record.cause == nil ? "" : cause == nil ? "?" : record.cause?.kind == .during ? "d" : "s"),
        ])
    }

    /// A site in a proving step, its file as the report's sites show it.
    private func sitePath(_ site: TraceSite) -> String {
        "\(options.sources?.path(for: site.file) ?? site.file):\(site.line)"
    }

    func site(_ site: TraceSite) -> JSONValue {
        .object([
            ("file", .string(site.file)),
            ("line", .int(site.line)),
            ("function", .string(site.function)),
            ("path", .string(options.sources?.path(for: site.file) ?? site.file)),
            ("href", .optional(options.links?.url(for: site))),
        ])
    }
}
