import Foundation
import SignalScopeAnalysis
import SignalScope
import SignalScopeTracing

/// Draws a trace as a marble diagram in SVG: time runs left to right, one lane per
/// subscription (or per node), values as circles, completion as a bar, errors as a cross,
/// disposal as a square, and a lane that never ends as an open arrow.
public struct MarbleTimeline {
    /// What a lane stands for.
    public enum Lanes: String, Sendable, CaseIterable {
        case subscriptions, nodes
    }

    /// What the timeline shows.
    public struct Options: Sendable {
        /// One lane per subscription (the default) or per node.
        public var lanes: Lanes = .subscriptions
        /// Only the lanes of nodes whose name, user name or site contains this text.
        public var node: String?
        /// Above this many events, a lane is drawn as a density strip instead of marbles.
        public var maximumMarbles = 120

        /// Creates options; the defaults are what `signalscope timeline` uses.
        public init(lanes: Lanes = .subscriptions, node: String? = nil, maximumMarbles: Int = 120) {
            self.lanes = lanes
            self.node = node
            self.maximumMarbles = maximumMarbles
        }
    }

    struct Mark {
        enum Kind { case next, completed, error, disposed }
        let kind: Kind
        let time: UInt64
        let text: String?
    }

    struct Lane {
        let title: String
        let depth: Int
        let start: UInt64
        var end: UInt64?
        var marks: [Mark] = []
        var isHighlighted = false
    }

    private let lanes: [Lane]
    private let start: UInt64
    private let end: UInt64
    private let options: Options

    /// Prepares the timeline of `trace` (read with `.everything`), highlighting the lanes
    /// that `report`'s findings name.
    public init(trace: Trace, report: AnalysisReport? = nil, options: Options = Options()) {
        self.options = options
        let times = trace.timeRange ?? 0...0
        start = times.lowerBound
        end = times.upperBound
        let named = Set(report?.findings.flatMap(\.entities) ?? [])
        var bySubscription: [SubscriptionID: Lane] = [:]
        var order: [SubscriptionID] = []
        let depths = Self.treeOrder(trace)
        for record in trace.records {
            guard let id = record.event.subscription, let info = trace.subscriptions[id], let depth = depths[id] else { continue }
            if let filter = options.node, let node = trace.nodes[info.node],
                !(node.name.contains(filter) || node.userName?.contains(filter) == true || node.site.description.contains(filter))
            {
                continue
            }
            if bySubscription[id] == nil {
                let node = trace.nodes[info.node]
                let title = "\(node.map { $0.userName.map { "\"\($0)\"" } ?? $0.name } ?? "?") · \(info.site)"
                bySubscription[id] = Lane(title: title, depth: depth.depth, start: record.timestamp)
                bySubscription[id]?.isHighlighted = named.contains(.subscription(id))
                order.append(id)
            }
            switch record.event {
            case .next(_, let value): bySubscription[id]?.marks.append(Mark(kind: .next, time: record.timestamp, text: value))
            case .completed: bySubscription[id]?.marks.append(Mark(kind: .completed, time: record.timestamp, text: nil))
            case .error(_, let description):
                bySubscription[id]?.marks.append(Mark(kind: .error, time: record.timestamp, text: description))
            case .disposed(_, let cause):
                if cause != .terminal {
                    bySubscription[id]?.marks.append(Mark(kind: .disposed, time: record.timestamp, text: "\(cause)"))
                }
                bySubscription[id]?.end = record.timestamp
            default: break
            }
        }
        order.sort { (depths[$0]?.position ?? 0) < (depths[$1]?.position ?? 0) }
        var lanes = order.compactMap { bySubscription[$0] }
        if options.lanes == .nodes {
            lanes = Self.mergedByNode(order, bySubscription, trace)
        }
        self.lanes = lanes
    }

    /// Each subscription's depth and place in a depth-first walk of the subscription tree
    /// (downstream first, then what it subscribed to), so lanes read from the subscriber up.
    private static func treeOrder(_ trace: Trace) -> [SubscriptionID: (depth: Int, position: Int)] {
        var children: [SubscriptionID: [SubscriptionID]] = [:]
        var roots: [SubscriptionID] = []
        for subscription in trace.subscriptions.values.sorted(by: { $0.id < $1.id }) {
            if let parent = subscription.parent, trace.subscriptions[parent] != nil {
                children[parent, default: []].append(subscription.id)
            } else {
                roots.append(subscription.id)
            }
        }
        var result: [SubscriptionID: (Int, Int)] = [:]
        var pending = roots.reversed().map { ($0, 0) }
        while let (id, depth) = pending.popLast() {
            result[id] = (depth, result.count)
            pending += (children[id] ?? []).reversed().map { ($0, depth + 1) }
        }
        return result
    }

    private static func mergedByNode(_ order: [SubscriptionID], _ lanes: [SubscriptionID: Lane], _ trace: Trace) -> [Lane] {
        var merged: [NodeID: Lane] = [:]
        var nodeOrder: [NodeID] = []
        for id in order {
            guard let lane = lanes[id], let node = trace.subscriptions[id]?.node else { continue }
            if var existing = merged[node] {
                existing.marks += lane.marks
                existing.end = existing.end.flatMap { end in lane.end.map { max(end, $0) } }
                existing.isHighlighted = existing.isHighlighted || lane.isHighlighted
                merged[node] = existing
            } else {
                let info = trace.nodes[node]
                let title = "\(info.map { $0.userName.map { "\"\($0)\"" } ?? $0.name } ?? "?") · \(info?.site.description ?? "?")"
                var first = Lane(title: title, depth: 0, start: lane.start, end: lane.end, marks: lane.marks)
                first.isHighlighted = lane.isHighlighted
                merged[node] = first
                nodeOrder.append(node)
            }
        }
        return nodeOrder.compactMap { merged[$0] }
    }

    // MARK: Drawing

    private static let labelWidth = 330.0
    private static let plotWidth = 900.0
    private static let laneHeight = 34.0
    private static let top = 40.0

    /// The SVG document.
    public func svg() -> String {
        let height = Self.top + Double(max(lanes.count, 1)) * Self.laneHeight + 30
        let width = Self.labelWidth + Self.plotWidth + 40
        var out = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"11\">",
            "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>",
            "<text x=\"10\" y=\"20\" font-size=\"13\" font-weight=\"bold\">signal timeline · \(XMLText.escaped(String(format: "%.3f", Double(end - start) / 1e6))) ms</text>",
        ]
        if lanes.isEmpty { out.append("<text x=\"10\" y=\"\(Self.top + 20)\">no subscriptions to draw</text>") }
        for (index, lane) in lanes.enumerated() {
            out += draw(lane, at: Self.top + Double(index) * Self.laneHeight)
        }
        out.append("</svg>")
        return out.joined(separator: "\n") + "\n"
    }

    private func x(_ time: UInt64) -> Double {
        Self.labelWidth + Self.plotWidth * Double(time - start) / Double(max(end - start, 1))
    }

    private func draw(_ lane: Lane, at y: Double) -> [String] {
        let middle = y + Self.laneHeight / 2
        var out: [String] = ["<g class=\"lane\">"]
        if lane.isHighlighted {
            out.append("<rect class=\"highlight\" x=\"0\" y=\"\(y + 2)\" width=\"\(Int(Self.labelWidth + Self.plotWidth + 30))\" height=\"\(Self.laneHeight - 4)\" fill=\"#fde0e0\" stroke=\"#d00000\"/>")
        }
        let indent = 10 + Double(min(lane.depth, 8)) * 12
        out.append("<text x=\"\(indent)\" y=\"\(middle + 4)\">\(XMLText.escaped(Self.shortened(lane.title, 52)))</text>")
        let from = x(lane.start)
        let to = lane.end.map(x) ?? Self.labelWidth + Self.plotWidth + 20
        out.append("<line x1=\"\(from)\" y1=\"\(middle)\" x2=\"\(to)\" y2=\"\(middle)\" stroke=\"#444444\" stroke-width=\"1.5\"/>")
        if lane.end == nil {
            out.append("<path class=\"open\" d=\"M \(to - 8) \(middle - 5) L \(to) \(middle) L \(to - 8) \(middle + 5)\" fill=\"none\" stroke=\"#444444\" stroke-width=\"1.5\"/>")
        }
        let values = lane.marks.filter { $0.kind == .next }
        if values.count > options.maximumMarbles {
            out += density(values, middle: middle)
        } else {
            for mark in values {
                out.append("<circle class=\"next\" cx=\"\(x(mark.time))\" cy=\"\(middle)\" r=\"5\" fill=\"#4a90d9\" stroke=\"#1f5f99\"/>")
                if let text = mark.text {
                    out.append("<text class=\"value\" x=\"\(x(mark.time))\" y=\"\(middle - 8)\" font-size=\"9\" text-anchor=\"middle\">\(XMLText.escaped(Self.shortened(text, 16)))</text>")
                }
            }
        }
        for mark in lane.marks where mark.kind != .next {
            let position = x(mark.time)
            switch mark.kind {
            case .completed:
                out.append("<line class=\"completed\" x1=\"\(position)\" y1=\"\(middle - 9)\" x2=\"\(position)\" y2=\"\(middle + 9)\" stroke=\"#222222\" stroke-width=\"3\"/>")
            case .error:
                out.append("<path class=\"error\" d=\"M \(position - 6) \(middle - 6) L \(position + 6) \(middle + 6) M \(position - 6) \(middle + 6) L \(position + 6) \(middle - 6)\" stroke=\"#c62828\" stroke-width=\"3\"><title>\(XMLText.escaped(mark.text ?? "error"))</title></path>")
            case .disposed:
                out.append("<rect class=\"disposed\" x=\"\(position - 5)\" y=\"\(middle - 5)\" width=\"10\" height=\"10\" fill=\"#f4c542\" stroke=\"#b8860b\"><title>disposed: \(XMLText.escaped(mark.text ?? ""))</title></rect>")
            case .next:
                break
            }
        }
        out.append("</g>")
        return out
    }

    /// Many values as a strip of bins whose opacity grows with how many fell in each.
    private func density(_ values: [Mark], middle: Double) -> [String] {
        let bins = 150
        var counts = [Int](repeating: 0, count: bins)
        for mark in values {
            let position = (x(mark.time) - Self.labelWidth) / Self.plotWidth
            counts[min(bins - 1, Int(position * Double(bins)))] += 1
        }
        let busiest = Double(counts.max() ?? 1)
        var out = ["<g class=\"density\"><title>\(values.count) values</title>"]
        let width = Self.plotWidth / Double(bins)
        for (index, count) in counts.enumerated() where count > 0 {
            let opacity = 0.15 + 0.85 * Double(count) / busiest
            out.append("<rect x=\"\(Self.labelWidth + Double(index) * width)\" y=\"\(middle - 6)\" width=\"\(width)\" height=\"12\" fill=\"#4a90d9\" fill-opacity=\"\(String(format: "%.2f", opacity))\"/>")
        }
        out.append("</g>")
        return out
    }

    static func shortened(_ text: String, _ limit: Int) -> String {
        text.count > limit ? String(text.prefix(limit - 1)) + "…" : text
    }

}
