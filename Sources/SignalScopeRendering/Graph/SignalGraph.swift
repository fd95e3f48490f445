import SignalScopeAnalysis
import SignalScope
import SignalScopeTracing

/// A trace's signal graph, ready to draw: nodes are signals, subjects, properties, commands,
/// operator stages, the subscribers at the ends of chains and the objects observers
/// capture; edges follow the operator graph (data and control) and the retain relations.
public struct SignalGraph: Sendable {
    /// What a node stands for; it decides the node's shape.
    public enum Kind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        case signal, subject, property, command, lifetime, operatorStage, subscriber, object

        /// The kind in words, as legends and tooltips say it.
        public var description: String {
            switch self {
            case .operatorStage: "operator"
            case .object: "object (yours)"
            default: rawValue
            }
        }
    }

    /// What happened to a node's subscriptions, as the drawing shows it.
    public enum State: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// A subscription was still live at the end of the trace.
        case live
        case completed
        case errored
        /// Ended by disposal, not by a terminal event.
        case disposed
        /// Never subscribed while recording.
        case idle

        /// The state in words, as legends and tooltips say it.
        public var description: String {
            switch self {
            case .live: "alive at the end"
            case .completed: "completed"
            case .errored: "failed (error)"
            case .disposed: "disposed"
            case .idle: "never subscribed"
            }
        }
    }

    /// One box in the graph: a node of the trace, a subscriber or a captured object, or several look-alikes collapsed into one.
    public struct Node: Sendable, Hashable {
        /// Stable across runs of the same program: derived from the trace's ids.
        public let id: String
        /// What the box stands for.
        public internal(set) var kind: Kind
        /// The first line: operator or name; the second: the site.
        public internal(set) var title: String
        /// Where in the user's code it was made, when known.
        public internal(set) var site: TraceSite?
        /// Whether it ended, and how, or is still alive.
        public internal(set) var state: State
        /// How many identical nodes this one stands for (after collapsing).
        public internal(set) var count: Int
        /// The rule of a finding this node is on, if any.
        public internal(set) var rule: RuleID?
        /// The trace's nodes, subscriptions or objects this box stands for (several after
        /// collapsing), for tools that show their details.
        public internal(set) var entities: [TraceEntity] = []
        /// Whether a finding's suspect step (the reference to cut) starts or ends here.
        public internal(set) var isSuspect = false
    }

    /// How an edge is drawn.
    public enum EdgeStyle: String, Sendable, Hashable {
        /// Values flow along it.
        case data
        /// The source only ends or switches the target (takeUntil's trigger, ...).
        case control
        /// A strong reference: an observer capturing an object, an object storing a node
        /// or a disposable.
        case retain
    }

    /// One arrow in the graph.
    public struct Edge: Sendable, Hashable {
        /// The ``Node/id`` the arrow starts at.
        public let from: String
        /// The ``Node/id`` the arrow points at.
        public let to: String
        /// What the arrow means: data, control, or a strong reference.
        public internal(set) var style: EdgeStyle
        /// How many edges of collapsed look-alikes it stands for.
        public internal(set) var count: Int
        /// Whether both ends are on a finding's path.
        public internal(set) var isHighlighted: Bool
        /// Whether it is a finding's suspect step: the reference to cut.
        public internal(set) var isSuspect = false
    }

    /// Options for building the graph.
    public struct Options: Sendable {
        /// Merge nodes made at the same site with the same shape into one node with a count.
        public var collapse = true
        /// The most nodes drawn; the rest are left out (and counted) to keep layout fast.
        public var maximumNodes = 2_000
        /// Draw only the neighbourhood of the nodes whose title contains this text, or whose
        /// id (their place in the whole graph, `n12`) is this text.
        public var focus: String?
        /// How many edges away from the focus to draw.
        public var depth = 2
        /// Name each node by its place in the whole graph (`n1`, `n2`, ...), as `graph` and
        /// the report do. Without, nodes keep the trace's ids (`n` and a node's id, `s` and a
        /// subscription's, `o` and an object's), which stay the same as a running program's
        /// graph grows (the live page's).
        public var numbersNodes = true

        /// Creates options; the defaults are what `signalscope graph` uses.
        public init(collapse: Bool = true, maximumNodes: Int = 2_000, focus: String? = nil, depth: Int = 2, numbersNodes: Bool = true) {
            self.collapse = collapse
            self.maximumNodes = maximumNodes
            self.focus = focus
            self.depth = depth
            self.numbersNodes = numbersNodes
        }
    }

    /// The boxes, in a stable order (so DOT output is reproducible).
    public private(set) var nodes: [Node] = []
    /// The arrows between ``nodes``.
    public private(set) var edges: [Edge] = []
    /// How many nodes the maximum, or the focus, left out.
    public private(set) var hiddenNodeCount = 0

    /// No nodes: what the live page's timeline data is written against, which names graph
    /// nodes only in the graph's own updates.
    init() {}

    /// Builds the graph of `trace`, highlighting what `report`'s findings are about.
    public init(trace: Trace, report: AnalysisReport? = nil, options: Options = Options()) {
        var builder = GraphBuilder(trace: trace)
        builder.highlight(report?.findings ?? [])
        if options.collapse { builder.collapse() }
        var (nodes, edges) = builder.result()
        let total = nodes.count
        // One id space everywhere: each node is named by its place in the whole graph
        // (`n1`, `n2`, ...), as DOT, the SVG and the report show it, before the focus or the
        // cap leaves any out, so `--focus n12` means the n12 of the full picture and a
        // focused picture keeps the full one's ids. The same scenario always gives the same.
        if options.numbersNodes {
            var positions: [String: String] = [:]
            for (index, node) in nodes.enumerated() { positions[node.id] = "n\(index + 1)" }
            (nodes, edges) = Self.renamed(nodes, edges) { positions[$0] ?? $0 }
        }
        if let focus = options.focus { (nodes, edges) = Self.neighbourhood(of: focus, depth: options.depth, nodes, edges) }
        if nodes.count > options.maximumNodes { (nodes, edges) = Self.capped(options.maximumNodes, nodes, edges) }
        self.nodes = nodes
        self.edges = edges
        hiddenNodeCount = total - nodes.count
    }

    /// `nodes` and `edges` with node ids replaced by `rename`.
    private static func renamed(_ nodes: [Node], _ edges: [Edge], _ rename: (String) -> String) -> ([Node], [Edge]) {
        let nodes = nodes.map { node in
            SignalGraph.Node(
                id: rename(node.id), kind: node.kind, title: node.title, site: node.site, state: node.state,
                count: node.count, rule: node.rule, entities: node.entities, isSuspect: node.isSuspect)
        }
        let edges = edges.map { edge in
            SignalGraph.Edge(
                from: rename(edge.from), to: rename(edge.to), style: edge.style, count: edge.count,
                isHighlighted: edge.isHighlighted, isSuspect: edge.isSuspect)
        }
        return (nodes, edges)
    }

    private static func neighbourhood(of focus: String, depth: Int, _ nodes: [Node], _ edges: [Edge]) -> ([Node], [Edge]) {
        var kept = Set(nodes.filter { $0.title.contains(focus) || $0.id == focus }.map(\.id))
        var frontier = kept
        // Stops when a step reaches nothing new, so a huge depth costs no more than the graph.
        var steps = 0
        while steps < depth, !frontier.isEmpty {
            steps += 1
            var next: Set<String> = []
            for edge in edges {
                if frontier.contains(edge.from), !kept.contains(edge.to) { next.insert(edge.to) }
                if frontier.contains(edge.to), !kept.contains(edge.from) { next.insert(edge.from) }
            }
            kept.formUnion(next)
            frontier = next
        }
        return (nodes.filter { kept.contains($0.id) }, edges.filter { kept.contains($0.from) && kept.contains($0.to) })
    }

    /// Keeps the nodes on findings first, then the busiest, then the oldest.
    private static func capped(_ maximum: Int, _ nodes: [Node], _ edges: [Edge]) -> ([Node], [Edge]) {
        let ranked = nodes.enumerated().sorted { lhs, rhs in
            let left = (lhs.element.rule == nil ? 1 : 0, -lhs.element.count, lhs.offset)
            let right = (rhs.element.rule == nil ? 1 : 0, -rhs.element.count, rhs.offset)
            return left < right
        }
        let kept = Set(ranked.prefix(maximum).map(\.element.id))
        return (nodes.filter { kept.contains($0.id) }, edges.filter { kept.contains($0.from) && kept.contains($0.to) })
    }
}
