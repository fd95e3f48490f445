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
        let timeline = TimelineModel(trace: trace, report: nil)
        // Subscriptions by their place in id order, and delivered events by their place in
        // sequence order: the numbers the data uses.
        let orderedSubscriptions = trace.subscriptions.values.sorted { $0.id < $1.id }
        var subscriptionNumbers: [SubscriptionID: Int] = [:]
        var subscriptionsByNode: [NodeID: [SubscriptionID]] = [:]
        for (index, subscription) in orderedSubscriptions.enumerated() {
            subscriptionNumbers[subscription.id] = index
            subscriptionsByNode[subscription.node, default: []].append(subscription.id)
        }
        var laneOf: [SubscriptionID: Int] = [:]
        for (index, lane) in timeline.lanes.enumerated() {
            for subscription in lane.subscriptions { laneOf[subscription] = index }
        }
        let deliveries = trace.records.filter { record in
            switch record.event {
            case .next, .error, .completed: record.event.subscription.flatMap { trace.subscriptions[$0] } != nil
            default: false
            }
        }
        var eventNumbers: [UInt64: Int] = [:]
        for (index, record) in deliveries.enumerated() { eventNumbers[record.sequence] = index }
        let elements = ReportElements(
            trace: trace, graph: graph, options: options,
            subscriptionNumber: { subscriptionNumbers[$0] }, laneOf: { laneOf[$0] })
        let eventNumber = { (sequence: UInt64) in eventNumbers[sequence] }
        let document = JSONValue.object([
            ("format", .int(1)),
            ("title", .string(options.title)),
            ("clock", .string(timeline.usesVirtualTime ? "virtual" : "wall")),
            ("duration", .int(timeline.duration)),
            ("limitations", .array(analysis.limitations.map(JSONValue.string))),
            ("warnings", .array(trace.warnings.map(JSONValue.string))),
            ("findings", .array(analysis.findings.map(elements.finding))),
            ("nodes", .array(graph.nodes.map { elements.node($0, subscriptionsByNode: subscriptionsByNode) })),
            ("edges", elements.edges()),
            ("lanes", .array(timeline.lanes.map { elements.lane($0, eventNumber: eventNumber) })),
            ("subscriptions", .array(orderedSubscriptions.map(elements.subscription))),
            ("events", .array(deliveries.map { elements.event($0, time: timeline.time(of: $0), eventNumber: eventNumber) })),
        ] + (options.graphNote.map { [("graphNote", JSONValue.string($0))] } ?? []))
        var out = JSONBuffer()
        document.write(into: &out)
        json = String(decoding: out.bytes, as: UTF8.self)
    }
}
