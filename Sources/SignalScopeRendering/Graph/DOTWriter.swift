import SignalScopeTracing

/// Writes a signal graph as Graphviz DOT, deterministically: the same graph gives the same
/// text, so outputs can be compared and checked in.
///
/// Every label and attribute value goes through ``quoted(_:)``, so no name can end a string,
/// start a statement, or carry markup into the SVG that Graphviz makes of it.
public enum DOTWriter {
    /// The DOT text of `graph`. Nodes are numbered by their place in the graph, not by the
    /// trace's process-wide ids, so the same scenario always gives the same text.
    public static func dot(_ graph: SignalGraph) -> String {
        var names: [String: String] = [:]
        for (index, node) in graph.nodes.enumerated() { names[node.id] = "n\(index + 1)" }
        let graph = graph.renamed { names[$0] ?? $0 }
        var lines = [
            "digraph signals {",
            "  graph [rankdir=LR, fontname=\"Helvetica\", fontsize=10, newrank=true];",
            "  node [fontname=\"Helvetica\", fontsize=10, style=\"rounded,filled\", shape=box];",
            "  edge [fontname=\"Helvetica\", fontsize=9];",
        ]
        var byFile: [String: [SignalGraph.Node]] = [:]
        var unplaced: [SignalGraph.Node] = []
        for node in graph.nodes {
            if let file = node.site?.file { byFile[file, default: []].append(node) } else { unplaced.append(node) }
        }
        for (index, file) in byFile.keys.sorted().enumerated() {
            lines.append("  subgraph cluster_\(index) {")
            lines.append("    label=\(quoted(file)); style=\"rounded,dashed\"; color=\"#bbbbbb\"; fontcolor=\"#777777\";")
            lines += byFile[file]!.map { "    " + statement($0) }
            lines.append("  }")
        }
        lines += unplaced.map { "  " + statement($0) }
        lines += graph.edges.map { "  " + statement($0) }
        if graph.hiddenNodeCount > 0 {
            lines.append("  hidden [shape=plaintext, style=\"\", label=\(quoted("\(graph.hiddenNodeCount) more nodes not drawn: focus on a node to see them"))];")
        }
        lines += legend()
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func quoted(_ text: String) -> String { DOTText.quoted(text) }

    private static func statement(_ node: SignalGraph.Node) -> String {
        var label = node.title
        if node.count > 1 { label += " ×\(node.count)" }
        if let site = node.site { label += "\n\(site.file.split(separator: "/").last ?? ""):\(site.line)" }
        if let rule = node.rule { label += "\n[\(rule)]" }
        var attributes = [
            "label=\(quoted(label))", "shape=\(shape(node.kind))", "fillcolor=\(quoted(fill(node.state)))",
            "color=\(quoted(node.rule == nil ? border(node.state) : highlight))",
        ]
        if node.rule != nil { attributes.append("penwidth=3") }
        if node.state == .live { attributes.append("style=\"rounded,filled,bold\"") }
        return "\(quoted(node.id)) [\(attributes.joined(separator: ", "))];"
    }

    private static func statement(_ edge: SignalGraph.Edge) -> String {
        var attributes: [String] =
            switch edge.style {
            case .data: []
            case .control: ["style=dotted", "arrowhead=odot"]
            case .retain: ["style=dashed", "color=\"#888888\"", "arrowhead=vee"]
            }
        if edge.count > 1 { attributes.append("label=\(quoted("×\(edge.count)"))") }
        if edge.isHighlighted { attributes += ["color=\(quoted(highlight))", "penwidth=2.5"] }
        let suffix = attributes.isEmpty ? "" : " [\(attributes.joined(separator: ", "))]"
        return "\(quoted(edge.from)) -> \(quoted(edge.to))\(suffix);"
    }

    private static let highlight = "#d00000"

    private static func shape(_ kind: SignalGraph.Kind) -> String {
        switch kind {
        case .signal, .operatorStage: "box"
        case .subject: "cylinder"
        case .property: "note"
        case .command: "component"
        case .lifetime: "hexagon"
        case .subscriber: "ellipse"
        case .object: "box3d"
        }
    }

    private static func fill(_ state: SignalGraph.State) -> String {
        switch state {
        case .live: "#d9f2d0"
        case .completed: "#eeeeee"
        case .errored: "#f7d4d4"
        case .disposed: "#fbf0c8"
        case .idle: "#ffffff"
        }
    }

    private static func border(_ state: SignalGraph.State) -> String {
        switch state {
        case .live: "#2e7d32"
        case .completed: "#888888"
        case .errored: "#c62828"
        case .disposed: "#b8860b"
        case .idle: "#aaaaaa"
        }
    }

    /// A corner key to the colours and lines.
    private static func legend() -> [String] {
        var lines = [
            "  subgraph cluster_legend {",
            "    label=\"legend\"; style=\"rounded\"; color=\"#cccccc\"; fontcolor=\"#777777\";",
        ]
        for state in SignalGraph.State.allCases {
            let style = state == .live ? ", style=\"rounded,filled,bold\"" : ""
            lines.append("    \(quoted("legend_\(state.rawValue)")) [label=\(quoted(state.rawValue)), fillcolor=\(quoted(fill(state))), color=\(quoted(border(state)))\(style)];")
        }
        lines += [
            "    legend_finding [label=\"on a finding\", fillcolor=\"#ffffff\", color=\"\(highlight)\", penwidth=3];",
            "    legend_a [label=\"\", shape=point]; legend_b [label=\"\", shape=point]; legend_c [label=\"\", shape=point];",
            "    legend_d [label=\"\", shape=point];",
            // Without constraints the samples stay in one small column instead of spanning
            // every rank of the graph.
            "    legend_a -> legend_b [label=\"data\", constraint=false];",
            "    legend_b -> legend_c [label=\"control\", style=dotted, arrowhead=odot, constraint=false];",
            "    legend_c -> legend_d [label=\"retains\", style=dashed, color=\"#888888\", arrowhead=vee, constraint=false];",
            "  }",
        ]
        return lines
    }
}
