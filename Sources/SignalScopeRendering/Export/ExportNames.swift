import SignalScope
import SignalScopeTracing

/// The names an export gives what records are about, kept as the records go by: a signal by
/// its name, a subscription by its signal and number (`map #3`) while it is live. Every
/// exporter names slices this way, so the same trace draws the same slices in each format.
struct ExportNames {
    private var nodeNames: [NodeID: String] = [:]
    private var factories: [NodeID: String] = [:]
    /// Live subscriptions, by name.
    private(set) var live: [SubscriptionID: String] = [:]

    /// Takes in what `event` makes, names or ends, and returns what it is about, named as
    /// before it (a disposal's subscription by the name it had).
    mutating func note(_ event: TraceEvent) -> String {
        let label = label(of: event)
        switch event {
        case .node(let id, _, let name, _, _, _):
            factories[id] = name
            nodeNames[id] = name
        case .nodeNamed(let id, let name):
            nodeNames[id] = Trace.nodeName(factory: factories[id] ?? "signal", userName: name)
        case .subscribe(let id, _, _, _, _):
            live[id] = label
        case .disposed(let id, _):
            live[id] = nil
        default:
            break
        }
        return label
    }

    /// A subscription's name: its signal's and its number while it is live.
    func name(of subscription: SubscriptionID) -> String { live[subscription] ?? Trace.name(of: subscription) }

    /// The name of the slice a record is drawn as, on its thread's track: its kind and what it
    /// is about (`next · map #3`, `subscribe · map #4`, `node · filter`).
    static func slice(_ event: TraceEvent, about label: String) -> String {
        label.isEmpty ? event.name : "\(event.name) · \(label)"
    }

    /// Forgets the live subscriptions, once an export has ended them.
    mutating func endAll() { live = [:] }

    private func label(of event: TraceEvent) -> String {
        switch event {
        case .node(let id, _, let name, _, _, _): nodeNames[id] ?? name
        case .nodeNamed(let id, _), .edge(_, let id): nodeNames[id] ?? ""
        case .subscribe(let id, let node, _, _, _): "\(nodeNames[node] ?? "signal") #\(id.rawValue)"
        default: event.subscription.map(name(of:)) ?? ""
        }
    }
}
