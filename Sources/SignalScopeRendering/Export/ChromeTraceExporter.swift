import SignalScope
import SignalScopeTracing

/// Exports a trace as Chrome Trace Event JSON, which the Perfetto UI and `chrome://tracing`
/// open, record by record (``TraceExporter``).
///
/// One track per thread of the traced program, where its events happened: each `next`,
/// `error` and `completed` is a slice there, named by its signal, with its subscription and
/// value (when recorded) as arguments. Each subscription is an async slice from subscribe
/// to disposal (named by its signal and subscription site) on the thread that subscribed.
/// A flow arrow goes from each event to each record it caused (``TraceRecord/cause``):
/// another event sent during its delivery, on the same thread, or in an action a scheduler
/// ran later; a subscription, a disposal or a signal made in its closures, drawn as a slice
/// of its own where it happened. Every recorded cause whose causing event is in the trace is
/// one arrow: the exporter reads the records twice (``CauseFlows``).
public struct ChromeTraceExporter: TraceExporter {
    private var names = ExportNames()
    /// Live subscriptions: the thread they began on, where their async slice is drawn.
    private var open: [SubscriptionID: UInt32] = [:]
    private var threads: Set<UInt32> = []
    private var origin: UInt64?
    private var last: UInt64 = 0
    private var flows = CauseFlows()

    /// An exporter ready for the first record.
    public init() {}

    public var readsTwice: Bool { true }

    public mutating func prepare(_ record: TraceRecord) { flows.count(record) }

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
        let label = names.note(record.event)
        switch record.event {
        case .subscribe(let id, _, _, let site, _):
            open[id] = record.thread
            asyncSlice(&output, "b", id, name: label, thread: record.thread, time: time) { output in
                output.key("site")
                output.string(site.description)
            }
        case .next(let id, let value):
            delivered(&output, id, record, label, time: time) { output in
                if let value {
                    output.raw(",")
                    output.key("value")
                    output.string(value)
                }
            }
            return
        case .error(let id, let description):
            delivered(&output, id, record, label, time: time) { output in
                output.raw(",")
                output.key("error")
                output.string(description)
            }
            return
        case .completed(let id):
            delivered(&output, id, record, label, time: time) { _ in }
            return
        case .disposed(let id, let cause):
            if let thread = open.removeValue(forKey: id) {
                asyncSlice(&output, "e", id, name: label, thread: thread, time: time) { output in
                    output.key("ended")
                    output.string("\(cause)")
                }
            }
        default:
            break
        }
        if record.cause != nil { caused(&output, record, time: time, about: label) }
    }

    public mutating func finish(into output: inout JSONBuffer) {
        for (id, thread) in open.sorted(by: { $0.key < $1.key }) {
            asyncSlice(&output, "e", id, name: names.name(of: id), thread: thread, time: last) { output in
                output.key("ended")
                output.string("still live")
            }
        }
        open = [:]
        names.endAll()
        output.raw("\n]}\n")
    }

    /// An event delivered to a subscription: a slice on its thread's track, and the flow
    /// arrow from its cause.
    private mutating func delivered(
        _ output: inout JSONBuffer, _ id: SubscriptionID, _ record: TraceRecord, _ label: String, time: UInt64,
        arguments: (inout JSONBuffer) -> Void
    ) {
        event(&output, ExportNames.slice(record.event, about: label), phase: "X", thread: record.thread, time: time) { output in
            output.key("subscription")
            output.number(id.rawValue)
            arguments(&output)
        }
        output.raw(",\"dur\":0")
        closeEvent(&output)
        arrows(&output, record, time: time)
    }

    /// A record a delivery caused that is not itself a delivery (a subscription, a disposal,
    /// a signal made in a closure): a slice where it happened, for its arrow to end at.
    private mutating func caused(_ output: inout JSONBuffer, _ record: TraceRecord, time: UInt64, about: String) {
        event(&output, ExportNames.slice(record.event, about: about), phase: "X", thread: record.thread, time: time) { _ in }
        output.raw(",\"dur\":0")
        closeEvent(&output)
        arrows(&output, record, time: time)
    }

    /// The arrow from `record`'s cause to its slice, and the arrows that will leave it.
    private mutating func arrows(_ output: inout JSONBuffer, _ record: TraceRecord, time: UInt64) {
        if let (id, from) = flows.arriving(at: record) {
            flow(&output, "s", id, thread: from.thread, time: from.time)
            flow(&output, "f", id, thread: record.thread, time: time)
        }
        _ = flows.leaving(record.sequence, at: CauseFlows.Origin(thread: record.thread, time: time))
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
