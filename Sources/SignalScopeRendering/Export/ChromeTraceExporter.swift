import SignalScope
import SignalScopeTracing

/// Exports a trace as Chrome Trace Event JSON, which the Perfetto UI and `chrome://tracing`
/// open, record by record (``TraceExporter``).
///
/// One track per thread of the traced program, where its events happened: each `next`,
/// `error` and `completed` is a slice there, named by its signal, with its subscription and
/// value (when recorded) as arguments. Each subscription is an async slice from subscribe
/// to disposal (named by its signal and subscription site) on the thread that subscribed.
/// A flow arrow goes from each event to what it caused (``TraceRecord/cause``): another
/// event sent during its delivery, on the same thread, or an action a scheduler ran later.
public struct ChromeTraceExporter: TraceExporter {
    private var nodeNames: [NodeID: String] = [:]
    /// The operator or factory that made each node, to name it when it is named later.
    private var factories: [NodeID: String] = [:]
    /// Live subscriptions: their name, and the thread and time they began.
    private var open: [SubscriptionID: (name: String, thread: UInt32)] = [:]
    private var threads: Set<UInt32> = []
    private var origin: UInt64?
    private var last: UInt64 = 0
    /// Where the most recent events were drawn, by sequence number, so a cause can be found
    /// for its flow arrow without keeping every event: a cause older than the table (rare:
    /// causes are recent) gets no arrow.
    private var recent: [(sequence: UInt64, thread: UInt32, time: UInt64)]

    private static let recentCapacity = 1 << 16

    /// An exporter ready for the first record.
    public init() {
        recent = Array(repeating: (0, 0, 0), count: Self.recentCapacity)
    }

    public mutating func begin(into output: inout JSONBuffer) {
        output.raw("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n")
        output.raw("{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"args\":{\"name\":\"signals\"}}")
    }

    public mutating func add(_ record: TraceRecord, into output: inout JSONBuffer) {
        let origin = self.origin ?? record.timestamp
        self.origin = origin
        let time = record.timestamp > origin ? record.timestamp - origin : 0
        last = max(last, time)
        if threads.insert(record.thread).inserted {
            event(&output, "thread_name", phase: "M", thread: record.thread, time: nil) { output in
                output.key("name")
                output.string("thread \(record.thread)")
            }
        }
        switch record.event {
        case .node(let id, _, let name, _, _, _):
            factories[id] = name
            nodeNames[id] = name
        case .nodeNamed(let id, let name):
            nodeNames[id] = Trace.nodeName(factory: factories[id] ?? "signal", userName: name)
        case .subscribe(let id, let node, _, let site, _):
            let name = "\(nodeNames[node] ?? "signal") #\(id.rawValue)"
            open[id] = (name, record.thread)
            asyncSlice(&output, "b", id, name: name, thread: record.thread, time: time) { output in
                output.key("site")
                output.string(site.description)
            }
        case .next(let id, let value):
            delivered(&output, "next", id, record, time: time) { output in
                if let value {
                    output.raw(",")
                    output.key("value")
                    output.string(value)
                }
            }
        case .error(let id, let description):
            delivered(&output, "error", id, record, time: time) { output in
                output.raw(",")
                output.key("error")
                output.string(description)
            }
        case .completed(let id):
            delivered(&output, "completed", id, record, time: time) { _ in }
        case .disposed(let id, let cause):
            if let subscription = open.removeValue(forKey: id) {
                asyncSlice(&output, "e", id, name: subscription.name, thread: subscription.thread, time: time) { output in
                    output.key("ended")
                    output.string("\(cause)")
                }
            }
        default:
            break
        }
    }

    public mutating func finish(into output: inout JSONBuffer) {
        for (id, subscription) in open.sorted(by: { $0.key < $1.key }) {
            asyncSlice(&output, "e", id, name: subscription.name, thread: subscription.thread, time: last) { output in
                output.key("ended")
                output.string("still live")
            }
        }
        open = [:]
        output.raw("\n]}\n")
    }

    /// An event delivered to a subscription: a slice on its thread's track, and the flow
    /// arrow from its cause.
    private mutating func delivered(
        _ output: inout JSONBuffer, _ kind: String, _ id: SubscriptionID, _ record: TraceRecord, time: UInt64,
        arguments: (inout JSONBuffer) -> Void
    ) {
        let name = open[id]?.name ?? Trace.name(of: id)
        event(&output, "\(kind) · \(name)", phase: "X", thread: record.thread, time: time) { output in
            output.key("subscription")
            output.number(id.rawValue)
            arguments(&output)
        }
        output.raw(",\"dur\":0")
        closeEvent(&output)
        if let cause = record.cause {
            let slot = recent[Int(cause.sequence % UInt64(Self.recentCapacity))]
            if slot.sequence == cause.sequence {
                flow(&output, "s", record.sequence, thread: slot.thread, time: slot.time)
                flow(&output, "f", record.sequence, thread: record.thread, time: time)
            }
        }
        recent[Int(record.sequence % UInt64(Self.recentCapacity))] = (record.sequence, record.thread, time)
    }

    private mutating func asyncSlice(
        _ output: inout JSONBuffer, _ phase: String, _ id: SubscriptionID, name: String, thread: UInt32, time: UInt64,
        arguments: (inout JSONBuffer) -> Void
    ) {
        event(&output, name, phase: phase, thread: thread, time: time, arguments: arguments)
        output.raw(",\"cat\":\"subscription\",\"id\":\"s\(id.rawValue)\"")
        closeEvent(&output)
    }

    private mutating func flow(_ output: inout JSONBuffer, _ phase: String, _ id: UInt64, thread: UInt32, time: UInt64) {
        event(&output, "caused", phase: phase, thread: thread, time: time) { _ in }
        output.raw(",\"cat\":\"cause\",\"id\":\(id)\(phase == "f" ? ",\"bp\":\"e\"" : "")")
        closeEvent(&output)
    }

    /// Opens an event object with its common members and its `args`; the caller may add
    /// members, then ``closeEvent(_:)``. Metadata events (no time) are closed here.
    private mutating func event(
        _ output: inout JSONBuffer, _ name: String, phase: String, thread: UInt32, time: UInt64?,
        arguments: (inout JSONBuffer) -> Void
    ) {
        output.raw(",\n{")
        output.key("name")
        output.string(name)
        output.raw(",\"ph\":\"\(phase)\",\"pid\":1,\"tid\":\(thread)")
        if let time {
            output.raw(",\"ts\":")
            output.microseconds(time)
        }
        output.raw(",\"args\":{")
        arguments(&output)
        output.raw("}")
        if time == nil { closeEvent(&output) }
    }

    private func closeEvent(_ output: inout JSONBuffer) { output.raw("}") }
}
