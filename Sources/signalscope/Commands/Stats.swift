import ArgumentParser
import Foundation
import SignalScopeTools

/// `signalscope stats`: what a trace holds, at a glance.
struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Summarise a trace: what the program did, its busiest nodes, what was alive at the end, duration.")

    @Argument(help: "The trace to summarise.")
    var trace: String

    @Option(help: "How many of the busiest nodes to list.")
    var top = 10

    func run() throws {
        guard top >= 0 else { throw CLIError("--top must be 0 or more, not \(top)") }
        let loaded = try TraceLoading.load(trace)
        var counts: [Activity: Int] = [:]
        var eventsPerNode: [NodeID: Int] = [:]
        for record in loaded.records {
            if let activity = Activity(record.event) { counts[activity, default: 0] += 1 }
            if case .next = record.event, let subscription = record.event.subscription,
                let node = loaded.subscriptions[subscription]?.node
            {
                eventsPerNode[node, default: 0] += 1
            }
        }
        let duration = Double(loaded.timeRange.map { $0.upperBound - $0.lowerBound } ?? 0) / 1e6
        standardOutput("\(TerminalText.sanitized(trace)): \(loaded.records.count) records over \(String(format: "%.3f", duration)) ms")
        standardOutput("\nwhat the program did")
        for activity in Activity.allCases {
            standardOutput("  \(pad(activity.rawValue, 28)) \(counts[activity] ?? 0)")
        }
        standardOutput("\nbusiest nodes (values sent)")
        for (node, count) in eventsPerNode.sorted(by: { ($1.value, $0.key) < ($0.value, $1.key) }).prefix(top) {
            guard let info = loaded.nodes[node] else { continue }
            standardOutput("  \(pad(TerminalText.sanitized(info.userName ?? info.name), 28)) \(pad(String(count), 8)) \(TerminalText.sanitized(info.site.description))")
        }
        let liveNodes = loaded.nodes.values.count { $0.retainCountAtEnd != nil }
        let liveSubscriptions = loaded.subscriptions.values.count { $0.retainCountAtEnd != nil }
        let openSubscriptions = loaded.subscriptions.values.count { $0.ending == nil }
        standardOutput("\nat the end")
        standardOutput("  nodes alive          \(liveNodes) of \(loaded.nodes.count)")
        standardOutput("  subscriptions alive  \(liveSubscriptions) of \(loaded.subscriptions.count)")
        standardOutput("  never terminated     \(openSubscriptions)")
        if loaded.heap.hasSnapshot {
            standardOutput("  heap snapshot        \(loaded.heap.objects.count) objects, \(loaded.heap.references.count) strong references")
        }
        for warning in loaded.warnings { standardOutput("\nwarning: \(TerminalText.sanitized(warning))") }
    }

    /// What a user did, by the records that say it; the rest of a log (heap snapshot,
    /// captures, bookkeeping) is summarised under "at the end".
    enum Activity: String, CaseIterable {
        case nodes = "signals and subjects made"
        case subscriptions = "subscriptions"
        case values = "values sent"
        case errors = "errors"
        case completions = "completions"
        case disposals = "disposals"
        case violations = "events after a terminal"

        init?(_ event: TraceEvent) {
            switch event {
            case .node: self = .nodes
            case .subscribe: self = .subscriptions
            case .next: self = .values
            case .error: self = .errors
            case .completed: self = .completions
            case .disposed: self = .disposals
            case .violation: self = .violations
            default: return nil
            }
        }
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
