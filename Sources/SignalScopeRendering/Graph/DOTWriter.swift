import SignalScopeTracing

/// Writes a signal graph as Graphviz DOT, deterministically: the same graph gives the same
/// text, so outputs can be compared and checked in.
///
/// Every label and attribute value goes through ``quoted(_:)``, so no name can end a string,
/// start a statement, or carry markup into the SVG that Graphviz makes of it.
public enum DOTWriter {
    /// The DOT text of `graph`. Nodes keep the graph's ids (their place in the whole graph,
    /// not the trace's process-wide ids), so the same scenario always gives the same text. With
    /// `links`, each node made in user code links to its source line (`URL`, an `<a>` in SVG).
    public static func dot(_ graph: SignalGraph, links: SourceLinks? = nil) -> String {
        var lines = [
            "digraph signals {",
            // overlap and sep matter to sfdp only: it removes overlapping boxes instead of
            // drawing a hairball.
            "  graph [rankdir=LR, fontname=\"Helvetica\", fontsize=10, newrank=true, overlap=prism, sep=\"+6\"];",
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
            lines += byFile[file]!.map { "    " + statement($0, links: links) }
            lines.append("  }")
        }
        lines += unplaced.map { "  " + statement($0, links: links) }
        lines += graph.edges.enumerated().map { "  " + statement($1, id: "e\($0 + 1)") }
        if graph.hiddenNodeCount > 0 {
            lines.append("  hidden [shape=plaintext, style=\"\", label=\(quoted("\(graph.hiddenNodeCount) more nodes not drawn: focus on a node to see them"))];")
        }
        lines += legend()
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func quoted(_ text: String) -> String { DOTText.quoted(text) }

    private static func statement(_ node: SignalGraph.Node, links: SourceLinks?) -> String {
        var label = node.title
        if node.count > 1 { label += " ×\(node.count)" }
        if let site = node.site { label += "\n\(site.file.split(separator: "/").last ?? ""):\(site.line)" }
        if let rule = node.rule { label += "\n[\(rule)]" }
        var tooltip = node.title == node.kind.rawValue ? node.kind.description : "\(node.kind.description): \(node.title)"
        if let site = node.site { tooltip += "\ncreated at \(site) in \(site.function)" }
        tooltip += "\n\(node.state.description)"
        if let rule = node.rule { tooltip += "\non a \(rule) finding" }
        if node.isSuspect { tooltip += "\nthe reference to cut starts or ends here" }
        var attributes = [
            "id=\(quoted(node.id))", "label=\(quoted(label))", "tooltip=\(quoted(tooltip))", "shape=\(shape(node.kind))",
            "fillcolor=\(quoted(node.rule == nil ? fill(node.state) : findingFill))",
            "color=\(quoted(node.rule == nil ? border(node.state) : highlight))",
        ]
        if node.rule != nil { attributes.append("penwidth=3") }
        if node.isSuspect { attributes.append("peripheries=2") }
        if node.state == .live { attributes.append("style=\"rounded,filled,bold\"") }
        if let url = node.site.flatMap({ links?.url(for: $0) }) { attributes.append("URL=\(quoted(url))") }
        return "\(quoted(node.id)) [\(attributes.joined(separator: ", "))];"
    }

    private static func statement(_ edge: SignalGraph.Edge, id: String) -> String {
        let style: [String] =
            switch edge.style {
            case .data: []
            case .control: ["style=dotted", "arrowhead=odot"]
            case .retain: ["style=dashed", "arrowhead=vee"] + (edge.isHighlighted ? [] : ["color=\"#888888\""])
            }
        var attributes = ["id=\(quoted(id))"] + style
        let label = [edge.isSuspect ? "cut" : nil, edge.count > 1 ? "×\(edge.count)" : nil].compactMap { $0 }.joined(separator: " ")
        if !label.isEmpty { attributes.append("label=\(quoted(label))") }
        if edge.isSuspect {
            attributes += ["color=\(quoted(highlight))", "penwidth=4", "tooltip=\(quoted("suspect: the reference to cut"))"]
        } else if edge.isHighlighted {
            attributes += ["color=\(quoted(highlight))", "penwidth=2.5"]
        }
        return "\(quoted(edge.from)) -> \(quoted(edge.to)) [\(attributes.joined(separator: ", "))];"
    }

    private static let highlight = "#d00000"
    /// A node on a finding is filled red whatever its state: a leak is alive, and "alive"
    /// must not read as healthy.
    private static let findingFill = "#fbd5d5"

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

    /// State colours: neutral blue for what is still alive (neither good nor bad by itself;
    /// findings say which is a leak), grey for what completed, orange for errors, sand for
    /// what was disposed. Red is kept for findings.
    private static func fill(_ state: SignalGraph.State) -> String {
        switch state {
        case .live: "#dbe8f6"
        case .completed: "#eeeeee"
        case .errored: "#fde2c4"
        case .disposed: "#f6efd9"
        case .idle: "#ffffff"
        }
    }

    private static func border(_ state: SignalGraph.State) -> String {
        switch state {
        case .live: "#2b6cb0"
        case .completed: "#888888"
        case .errored: "#c05621"
        case .disposed: "#a08a4a"
        case .idle: "#aaaaaa"
        }
    }

    /// A key to the shapes, colours and lines: three rows (shapes, states, lines) that
    /// invisible edges lay out left to right, so the key stays low and compact beside any
    /// graph instead of one tall column.
    private static func legend() -> [String] {
        var lines = [
            "  subgraph cluster_legend {",
            "    label=\"legend\"; style=\"rounded\"; color=\"#cccccc\"; fontcolor=\"#777777\";",
        ]
        var shapes: [String] = []
        for kind in SignalGraph.Kind.allCases where kind != .operatorStage {
            let id = quoted("legend_\(kind.rawValue)")
            let label = kind == .signal ? "signal or operator" : kind.description
            lines.append("    \(id) [label=\(quoted(label)), shape=\(shape(kind)), fillcolor=\"#ffffff\", color=\"#666666\"];")
            shapes.append(id)
        }
        var states: [String] = []
        for state in SignalGraph.State.allCases {
            let id = quoted("legend_\(state.rawValue)")
            let style = state == .live ? ", style=\"rounded,filled,bold\"" : ""
            lines.append("    \(id) [label=\(quoted(state.description)), fillcolor=\(quoted(fill(state))), color=\(quoted(border(state)))\(style)];")
            states.append(id)
        }
        lines.append("    \"legend_finding\" [label=\"on a finding (leaked or misused)\", fillcolor=\"\(findingFill)\", color=\"\(highlight)\", penwidth=3];")
        states.append("\"legend_finding\"")
        lines += [
            "    legend_a [label=\"\", shape=point]; legend_b [label=\"\", shape=point]; legend_c [label=\"\", shape=point];",
            "    legend_d [label=\"\", shape=point]; legend_e [label=\"\", shape=point]; legend_f [label=\"\", shape=point];",
            "    legend_a -> legend_b [label=\"values flow\"];",
            "    legend_c -> legend_d [label=\"ends or switches\", style=dotted, arrowhead=odot];",
            "    legend_e -> legend_f [label=\"holds strongly\", style=dashed, color=\"#888888\", arrowhead=vee];",
            "    legend_g [label=\"\", shape=point]; legend_h [label=\"\", shape=point];",
            "    legend_g -> legend_h [label=\"suspect: the reference to cut\", style=dashed, arrowhead=vee, color=\"\(highlight)\", penwidth=4];",
            "    legend_b -> legend_c [style=invis]; legend_d -> legend_e [style=invis]; legend_f -> legend_g [style=invis];",
        ]
        for row in [shapes, states] {
            lines.append("    " + zip(row, row.dropFirst()).map { "\($0) -> \($1) [style=invis];" }.joined(separator: " "))
        }
        lines.append("  }")
        return lines
    }
}
