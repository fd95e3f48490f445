import SignalScopeAnalysis
import SignalScope
import SignalScopeTracing

/// The JSON the report page draws from (docs/rendering.md, "The report's data"): written
/// with ``JSONBuffer``, so every string from the trace is escaped for a `<script>` element,
/// and in a fixed order with subscriptions and events numbered by their place (not by the
/// process-wide ids and sequence numbers of the recording), so the same scenario gives the
/// same text.
struct ReportData {
    let json: String

    init(trace: Trace, analysis: AnalysisReport, graph: SignalGraph, options: HTMLReport.Options) {
        let builder = Builder(trace: trace, graph: graph, options: options)
        var out = JSONBuffer()
        builder.document(analysis).write(into: &out)
        json = String(decoding: out.bytes, as: UTF8.self)
    }

    private struct Builder {
        let trace: Trace
        let graph: SignalGraph
        let options: HTMLReport.Options
        let timeline: TimelineModel
        /// The graph node each trace entity is drawn in, and each graph id before numbering.
        private var graphNode: [TraceEntity: String] = [:]
        private var graphByTraceID: [String: String] = [:]
        /// The lane each subscription is drawn in.
        private var laneOf: [SubscriptionID: Int] = [:]
        /// Subscriptions by their place in id order, and delivered events by their place in
        /// sequence order: the numbers the data uses.
        private var subscriptionNumbers: [SubscriptionID: Int] = [:]
        private var eventNumbers: [UInt64: Int] = [:]
        private let orderedSubscriptions: [Trace.Subscription]
        private let deliveries: [TraceRecord]
        private var subscriptionsByNode: [NodeID: [SubscriptionID]] = [:]

        init(trace: Trace, graph: SignalGraph, options: HTMLReport.Options) {
            self.trace = trace
            self.graph = graph
            self.options = options
            timeline = TimelineModel(trace: trace, report: nil)
            for node in graph.nodes {
                for entity in node.entities {
                    graphNode[entity] = node.id
                    graphByTraceID[GraphBuilder.id(entity)] = node.id
                }
            }
            for (index, lane) in timeline.lanes.enumerated() {
                for subscription in lane.subscriptions { laneOf[subscription] = index }
            }
            orderedSubscriptions = trace.subscriptions.values.sorted { $0.id < $1.id }
            for (index, subscription) in orderedSubscriptions.enumerated() {
                subscriptionNumbers[subscription.id] = index
                subscriptionsByNode[subscription.node, default: []].append(subscription.id)
            }
            deliveries = trace.records.filter { record in
                switch record.event {
                case .next, .error, .completed: record.event.subscription.flatMap { trace.subscriptions[$0] } != nil
                default: false
                }
            }
            for (index, record) in deliveries.enumerated() { eventNumbers[record.sequence] = index }
        }

        private func numbers(_ subscriptions: [SubscriptionID]) -> JSONValue {
            .array(subscriptions.compactMap { subscriptionNumbers[$0] }.map(JSONValue.int))
        }

        func document(_ analysis: AnalysisReport) -> JSONValue {
            .object([
                ("format", .int(1)),
                ("title", .string(options.title)),
                ("clock", .string(timeline.usesVirtualTime ? "virtual" : "wall")),
                ("duration", .int(timeline.duration)),
                ("limitations", .array(analysis.limitations.map(JSONValue.string))),
                ("warnings", .array(trace.warnings.map(JSONValue.string))),
                ("findings", .array(analysis.findings.map(finding))),
                ("nodes", .array(graph.nodes.map(node))),
                ("edges", .array(graph.edges.enumerated().map { edge($1, id: "e\($0 + 1)") })),
                ("lanes", .array(timeline.lanes.map(lane))),
                ("subscriptions", subscriptions()),
                ("events", events()),
            ])
        }

        /// The graph node that shows `entity`: its own, or, for a subscription an operator
        /// made, the operator's (as the graph draws it).
        private func graphID(of entity: TraceEntity) -> String? {
            if let id = graphNode[entity] { return id }
            guard case .subscription(let id) = entity else { return nil }
            return graphByTraceID[GraphBuilder.graphID(of: id, in: trace)]
        }

        private func lanes(of subscriptions: [SubscriptionID]) -> JSONValue {
            .array(Set(subscriptions.compactMap { laneOf[$0] }).sorted().map(JSONValue.int))
        }

        private func finding(_ finding: Finding) -> JSONValue {
            let nodes = Set(finding.entities.compactMap(graphID(of:)))
            let subscriptions = finding.entities.compactMap { entity -> SubscriptionID? in
                if case .subscription(let id) = entity { id } else { nil }
            }
            let edges = graph.edges.enumerated().filter { nodes.contains($1.from) && nodes.contains($1.to) }
            return .object([
                ("rule", .string(finding.rule.rawValue)),
                ("severity", .string(finding.severity.rawValue)),
                ("message", .string(finding.message)),
                ("site", site(finding.location)),
                ("path", .array(finding.steps.map { step in .string(step.phrased(site: sitePath)) })),
                ("hint", .string(finding.hint)),
                ("baseline", .bool(options.baseline.contains(finding.fingerprint))),
                ("nodes", .array(graph.nodes.map(\.id).filter(nodes.contains).map(JSONValue.string))),
                ("edges", .array(edges.map { .string("e\($0.offset + 1)") })),
                ("lanes", lanes(of: subscriptions)),
            ])
        }

        private func node(_ node: SignalGraph.Node) -> JSONValue {
            let details = NodeDetails(node: node, trace: trace, subscriptionsByNode: subscriptionsByNode)
            return .object([
                ("id", .string(node.id)),
                ("kind", .string(node.kind.description)),
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

        private func edge(_ edge: SignalGraph.Edge, id: String) -> JSONValue {
            .object([("id", .string(id)), ("from", .string(edge.from)), ("to", .string(edge.to)), ("style", .string(edge.style.rawValue))])
        }

        private func lane(_ lane: TimelineModel.Lane) -> JSONValue {
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
                // [kind, time, event number (null for a disposal), text]: n(ext), e(rror),
                // c(ompleted), d(isposed).
                ("marks", .array(lane.marks.map { mark in
                    .array([
                        .string(String(mark.kind.rawValue.prefix(1))), .int(mark.time),
                        eventNumbers[mark.sequence].map(JSONValue.int) ?? .null, .optional(mark.text),
                    ])
                })),
            ])
        }

        /// Every subscription, by number: its lane (the collapsed lane that stands for it, if
        /// any), node and sites, so that each step of a causal chain can be named.
        private func subscriptions() -> JSONValue {
            .array(orderedSubscriptions.map { subscription in
                let node = trace.nodes[subscription.node]
                return .object([
                    ("lane", laneOf[subscription.id].map(JSONValue.int) ?? .null),
                    ("node", .optional(graphID(of: .node(subscription.node)))),
                    ("title", .string(node.map { trace.title(of: $0) } ?? "subscription")),
                    ("nodeKind", .string(node?.kind.rawValue ?? "signal")),
                    ("created", node.map { site($0.site) } ?? .null),
                    ("subscribedAt", site(subscription.site)),
                ])
            })
        }

        /// Every delivered event in sequence order: [subscription, kind, time, text, the
        /// number of the event that caused it (null: none), how (d during, s scheduled, ""
        /// none recorded, ? recorded but not among the trace's events)].
        private func events() -> JSONValue {
            .array(deliveries.map { record in
                let (kind, text): (String, String?) =
                    switch record.event {
                    case .next(_, let value): ("n", value)
                    case .error(_, let description): ("e", description)
                    default: ("c", nil)
                    }
                let cause = record.cause.flatMap { eventNumbers[$0.sequence] }
                return .array([
                    record.event.subscription.flatMap { subscriptionNumbers[$0] }.map(JSONValue.int) ?? .null, .string(kind),
                    .int(timeline.time(of: record)), .optional(text), cause.map(JSONValue.int) ?? .null,
                    .string(record.cause == nil ? "" : cause == nil ? "?" : record.cause?.kind == .during ? "d" : "s"),
                ])
            })
        }

        /// A site in a proving step, its file as the report's sites show it.
        private func sitePath(_ site: TraceSite) -> String {
            "\(options.sources?.path(for: site.file) ?? site.file):\(site.line)"
        }

        private func site(_ site: TraceSite) -> JSONValue {
            .object([
                ("file", .string(site.file)),
                ("line", .int(site.line)),
                ("function", .string(site.function)),
                ("path", .string(options.sources?.path(for: site.file) ?? site.file)),
                ("href", .optional(options.links?.url(for: site))),
            ])
        }
    }
}
