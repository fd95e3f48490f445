import Foundation
import SignalScopeAnalysis
import SignalScope
import SignalScopeTracing

/// Draws a trace as a marble diagram in SVG: time runs left to right on an axis with ticks,
/// one lane per subscription (or per node, identical lanes collapsed with a count), values
/// as circles, completion as a bar, errors as a cross, disposal as a square, and a lane that
/// never ends as an open arrow; a legend says so. Each mark's tooltip has its value and time.
public struct MarbleTimeline {
    /// What a lane stands for.
    public typealias Lanes = TimelineModel.Lanes

    /// What the timeline shows.
    public struct Options: Sendable {
        /// One lane per subscription (the default) or per node.
        public var lanes: Lanes = .subscriptions
        /// Only the lanes of nodes whose name, user name or site contains this text.
        public var node: String?
        /// Above this many events, a lane is drawn as a density strip instead of marbles.
        public var maximumMarbles = 120
        /// The most lanes drawn; a line says how many more there were.
        public var maximumLanes = 400

        /// Creates options; the defaults are what `signalscope timeline` uses.
        public init(lanes: Lanes = .subscriptions, node: String? = nil, maximumMarbles: Int = 120, maximumLanes: Int = 400) {
            self.lanes = lanes
            self.node = node
            self.maximumMarbles = maximumMarbles
            self.maximumLanes = maximumLanes
        }
    }

    private let model: TimelineModel
    private let options: Options

    /// Prepares the timeline of `trace` (read with `.everything`), highlighting the lanes
    /// that `report`'s findings name.
    public init(trace: Trace, report: AnalysisReport? = nil, options: Options = Options()) {
        self.options = options
        model = TimelineModel(trace: trace, report: report, options: .init(lanes: options.lanes, node: options.node))
    }

    // MARK: Drawing

    private static let labelWidth = 330.0
    private static let plotWidth = 900.0
    private static let laneHeight = 34.0
    private static let top = 70.0
    private static let width = labelWidth + plotWidth + 40

    /// The SVG document.
    public func svg() -> String {
        let drawn = model.lanes.prefix(options.maximumLanes)
        let hidden = model.lanes.count - drawn.count
        let height = Self.top + Double(max(drawn.count, 1)) * Self.laneHeight + (hidden > 0 ? 30 : 0) + 20
        let clock = model.usesVirtualTime ? "virtual time (TestScheduler)" : "wall clock"
        var out = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(Self.width))\" height=\"\(Int(height))\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"11\">",
            "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>",
            "<text x=\"10\" y=\"20\" font-size=\"13\" font-weight=\"bold\">signal timeline · \(XMLText.escaped(TimeAxis.label(model.duration))) of \(clock)</text>",
        ]
        out += legend()
        out += axis(bottom: Self.top + Double(max(drawn.count, 1)) * Self.laneHeight)
        if drawn.isEmpty { out.append("<text x=\"10\" y=\"\(Self.top + 20)\">no subscriptions to draw</text>") }
        for (index, lane) in drawn.enumerated() {
            out += draw(lane, at: Self.top + Double(index) * Self.laneHeight)
        }
        if hidden > 0 {
            out.append("<text class=\"hidden-lanes\" x=\"10\" y=\"\(height - 25)\">\(hidden) more lanes not drawn: filter with --node to see them</text>")
        }
        out.append("</svg>")
        return out.joined(separator: "\n") + "\n"
    }

    /// The key to the marks, in one row under the title.
    func legend() -> [String] {
        let y = 42.0
        var out = ["<g class=\"legend\" font-size=\"10\" fill=\"#444444\">"]
        var x = 10.0
        func item(_ shape: String, _ label: String, shapeWidth: Double = 16) {
            out.append(shape.replacingOccurrences(of: "X", with: "\(x + 6)"))
            out.append("<text x=\"\(x + shapeWidth)\" y=\"\(y + 4)\">\(label)</text>")
            x += (shapeWidth + 10 + Double(label.count) * 5.6).rounded()
        }
        item("<circle cx=\"X\" cy=\"\(y)\" r=\"5\" fill=\"#4a90d9\" stroke=\"#1f5f99\"/>", "value (next)")
        item("<line x1=\"X\" y1=\"\(y - 7)\" x2=\"X\" y2=\"\(y + 7)\" stroke=\"#222222\" stroke-width=\"3\"/>", "completed")
        item("<path d=\"M \(x + 1) \(y - 5) L \(x + 11) \(y + 5) M \(x + 1) \(y + 5) L \(x + 11) \(y - 5)\" stroke=\"#c62828\" stroke-width=\"3\"/>", "error")
        item("<rect x=\"\(x + 1)\" y=\"\(y - 5)\" width=\"10\" height=\"10\" fill=\"#f4c542\" stroke=\"#b8860b\"/>", "disposed (not by its own end)")
        item("<path d=\"M \(x + 2) \(y - 5) L \(x + 10) \(y) L \(x + 2) \(y + 5)\" fill=\"none\" stroke=\"#444444\" stroke-width=\"1.5\"/>", "still live at the end")
        item("<rect x=\"\(x)\" y=\"\(y - 7)\" width=\"12\" height=\"14\" fill=\"#fde0e0\" stroke=\"#d00000\"/>", "on a finding")
        item("<text x=\"X\" y=\"\(y + 4)\" font-weight=\"bold\">×3</text>", "three identical lanes", shapeWidth: 24)
        out.append("</g>")
        return out
    }

    private func axis(bottom: Double) -> [String] {
        var out = ["<g class=\"axis\" font-size=\"9\" fill=\"#666666\">"]
        for tick in TimeAxis.ticks(upTo: model.duration) {
            let position = x(tick)
            out.append("<line x1=\"\(position)\" y1=\"\(Self.top - 4)\" x2=\"\(position)\" y2=\"\(bottom)\" stroke=\"#eeeeee\"/>")
            out.append("<text x=\"\(position)\" y=\"\(Self.top - 7)\" text-anchor=\"middle\">\(XMLText.escaped(TimeAxis.label(tick)))</text>")
        }
        out.append("</g>")
        return out
    }

    private func x(_ time: UInt64) -> Double {
        Self.labelWidth + Self.plotWidth * Double(time) / Double(max(model.duration, 1))
    }

    private func draw(_ lane: TimelineModel.Lane, at y: Double) -> [String] {
        let middle = y + Self.laneHeight / 2
        var out: [String] = ["<g class=\"lane\">"]
        if lane.isHighlighted {
            out.append("<rect class=\"highlight\" x=\"0\" y=\"\(y + 2)\" width=\"\(Int(Self.labelWidth + Self.plotWidth + 30))\" height=\"\(Self.laneHeight - 4)\" fill=\"#fde0e0\" stroke=\"#d00000\"/>")
        }
        let indent = 10 + Double(min(lane.depth, 8)) * 12
        let count = lane.count > 1 ? "×\(lane.count) " : ""
        var tooltip = lane.title
        if let site = lane.subscriptionSite { tooltip += "\nsubscribed at \(site)" }
        if lane.count > 1 { tooltip += "\n\(lane.count) identical lanes" }
        out.append("<text x=\"\(indent)\" y=\"\(middle + 4)\"><title>\(XMLText.escaped(tooltip))</title>\(count.isEmpty ? "" : "<tspan font-weight=\"bold\">\(count)</tspan>")\(XMLText.escaped(Self.shortened(lane.title, 52 - count.count)))</text>")
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
            // A label only where it does not run into the one before it.
            var labelEnd = -Double.infinity
            for mark in values {
                let position = x(mark.time)
                let tip = "\(mark.text.map { "\($0) · " } ?? "")\(TimeAxis.label(mark.time))"
                out.append("<circle class=\"next\" cx=\"\(position)\" cy=\"\(middle)\" r=\"5\" fill=\"#4a90d9\" stroke=\"#1f5f99\"><title>\(XMLText.escaped(tip))</title></circle>")
                if let text = mark.text {
                    let label = Self.shortened(text, 16)
                    let halfWidth = Double(label.count) * 2.6
                    if position - halfWidth > labelEnd + 3 {
                        out.append("<text class=\"value\" x=\"\(position)\" y=\"\(middle - 8)\" font-size=\"9\" text-anchor=\"middle\">\(XMLText.escaped(label))</text>")
                        labelEnd = position + halfWidth
                    }
                }
            }
        }
        for mark in lane.marks where mark.kind != .next {
            let position = x(mark.time)
            let time = TimeAxis.label(mark.time)
            switch mark.kind {
            case .completed:
                out.append("<line class=\"completed\" x1=\"\(position)\" y1=\"\(middle - 9)\" x2=\"\(position)\" y2=\"\(middle + 9)\" stroke=\"#222222\" stroke-width=\"3\"><title>completed · \(XMLText.escaped(time))</title></line>")
            case .error:
                out.append("<path class=\"error\" d=\"M \(position - 6) \(middle - 6) L \(position + 6) \(middle + 6) M \(position - 6) \(middle + 6) L \(position + 6) \(middle - 6)\" stroke=\"#c62828\" stroke-width=\"3\"><title>\(XMLText.escaped(mark.text ?? "error")) · \(XMLText.escaped(time))</title></path>")
            case .disposed:
                out.append("<rect class=\"disposed\" x=\"\(position - 5)\" y=\"\(middle - 5)\" width=\"10\" height=\"10\" fill=\"#f4c542\" stroke=\"#b8860b\"><title>disposed: \(XMLText.escaped(mark.text ?? "")) · \(XMLText.escaped(time))</title></rect>")
            case .next:
                break
            }
        }
        out.append("</g>")
        return out
    }

    /// Many values as a strip of bins whose opacity grows with how many fell in each.
    private func density(_ values: [TimelineModel.Mark], middle: Double) -> [String] {
        let bins = 150
        var counts = [Int](repeating: 0, count: bins)
        for mark in values {
            let position = (x(mark.time) - Self.labelWidth) / Self.plotWidth
            counts[max(0, min(bins - 1, Int(position * Double(bins))))] += 1
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
