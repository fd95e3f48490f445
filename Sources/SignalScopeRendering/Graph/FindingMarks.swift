import SignalScopeAnalysis
import SignalScopeTracing

/// What of the signal graph a finding is about, by the one rule both pictures follow: the
/// graph drawn with its findings (``GraphBuilder/highlight(_:)``) and the report, which
/// highlights a finding's part of the graph when it is selected. Its nodes are the graph
/// nodes of the entities it is about; its edges, those between two of them; its suspect
/// links, the ends of each suspect step (the reference to cut).
struct FindingMarks {
    let nodes: Set<String>
    /// The graph nodes each suspect step names.
    let suspectEnds: [Set<String>]

    /// The marks of `finding`, whose entities `graphID` places in the graph (`nil`: drawn by
    /// no node).
    init(_ finding: Finding, graphID: (TraceEntity) -> String?) {
        nodes = Set(finding.entities.compactMap(graphID))
        suspectEnds = finding.steps.filter { $0.mark == .suspect }.map { Set($0.entities.compactMap(graphID)) }
    }

    /// Whether the edge from `from` to `to` is part of the finding.
    func contains(edgeFrom from: String, to: String) -> Bool {
        nodes.contains(from) && nodes.contains(to)
    }

    /// Whether a retaining edge from `from` to `to` is a suspect link: its ends are a suspect
    /// step's.
    func isSuspect(retainingEdgeFrom from: String, to: String) -> Bool {
        from != to && suspectEnds.contains { $0.contains(from) && $0.contains(to) }
    }
}
