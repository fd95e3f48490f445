import Foundation
import SignalScope
import SignalScopeTracing

/// Exports a trace as Chrome Trace Event JSON, which the Perfetto UI and `chrome://tracing`
/// open: one track per subscription, its lifetime as a slice, its events as instants (with
/// value summaries when recorded), and flow arrows from an upstream event to the
/// downstream event it caused.
public enum ChromeTraceExporter {
    /// The JSON of `trace` (which must keep its records: read it with `.everything`).
    public static func json(_ trace: Trace) throws -> Data {
        let times = trace.timeRange ?? 0...0
        func microseconds(_ timestamp: UInt64) -> Double { Double(timestamp - times.lowerBound) / 1_000 }
        var events: [[String: Any]] = []
        var began: [SubscriptionID: UInt64] = [:]
        var flows = 0
        // The last event delivered on each thread, to draw what it caused.
        var lastOnThread: [UInt32: (subscription: SubscriptionID, timestamp: UInt64)] = [:]

        func name(of subscription: SubscriptionID) -> String {
            guard let info = trace.subscriptions[subscription], let node = trace.nodes[info.node] else {
                return "subscription #\(subscription.rawValue)"
            }
            return "\(node.userName.map { "\"\($0)\"" } ?? node.name) #\(subscription.rawValue)"
        }

        for record in trace.records {
            let ts = microseconds(record.timestamp)
            guard let subscription = record.event.subscription else { continue }
            let track = subscription.rawValue
            switch record.event {
            case .subscribe(_, _, _, let site):
                began[subscription] = record.timestamp
                events.append(["name": "thread_name", "ph": "M", "pid": 1, "tid": track,
                               "args": ["name": "\(name(of: subscription)) at \(site)"]])
            case .next(_, let value):
                var instant: [String: Any] = ["name": "next", "ph": "i", "s": "t", "pid": 1, "tid": track, "ts": ts]
                if let value { instant["args"] = ["value": value] }
                events.append(instant)
                if let previous = lastOnThread[record.thread], previous.subscription != subscription,
                    trace.subscriptions[previous.subscription]?.parent == subscription
                {
                    flows += 1
                    events.append(["name": "causes", "cat": "flow", "ph": "s", "id": flows, "pid": 1,
                                   "tid": previous.subscription.rawValue, "ts": microseconds(previous.timestamp)])
                    events.append(["name": "causes", "cat": "flow", "ph": "f", "bp": "e", "id": flows, "pid": 1,
                                   "tid": track, "ts": ts])
                }
                lastOnThread[record.thread] = (subscription, record.timestamp)
            case .error(_, let description):
                events.append(["name": "error", "ph": "i", "s": "t", "pid": 1, "tid": track, "ts": ts,
                               "args": ["error": description]])
            case .completed:
                events.append(["name": "completed", "ph": "i", "s": "t", "pid": 1, "tid": track, "ts": ts])
            case .disposed(_, let cause):
                if let begin = began.removeValue(forKey: subscription) {
                    events.append(["name": name(of: subscription), "ph": "X", "pid": 1, "tid": track,
                                   "ts": microseconds(begin), "dur": ts - microseconds(begin),
                                   "args": ["ended": "\(cause)"]])
                }
            default:
                break
            }
        }
        let end = microseconds(times.upperBound)
        for (subscription, begin) in began.sorted(by: { $0.key < $1.key }) {
            events.append(["name": name(of: subscription), "ph": "X", "pid": 1, "tid": subscription.rawValue,
                           "ts": microseconds(begin), "dur": end - microseconds(begin), "args": ["ended": "still live"]])
        }
        events.insert(["name": "process_name", "ph": "M", "pid": 1, "args": ["name": "signals"]], at: 0)
        return try JSONSerialization.data(withJSONObject: ["traceEvents": events, "displayTimeUnit": "ns"], options: [.sortedKeys])
    }
}
