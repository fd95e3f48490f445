import SignalScopeTracing

extension LeakModel {
    /// `finding`, which accounts for `objects` and for `keptWithThem` (what only they keep
    /// alive): claims `objects`, so that later rules leave them alone, and records all of them
    /// in the finding, so that a later finding about one of them is folded into it.
    mutating func claim(_ objects: some Sequence<ObjectID>, by finding: Finding, keptWithThem: some Sequence<ObjectID> = []) -> Finding {
        claimed.formUnion(objects)
        var finding = finding
        finding.explained = Set(objects).union(keptWithThem)
        return finding
    }
}

extension Finding {
    /// One leak, one finding: a finding that corroborates an earlier one about the same
    /// objects (an object the program said should be freed, held by a leak a pattern rule
    /// explains at the line where the fix goes, or growth over repetitions that it explains)
    /// becomes steps of that finding, first, and
    /// makes it as serious as itself, instead of standing beside it at another line.
    static func folded(_ findings: [Finding]) -> [Finding] {
        var kept: [Finding] = []
        var explainer: [ObjectID: Int] = [:]
        for finding in findings {
            if !finding.corroboration.isEmpty, let index = finding.explained.lazy.compactMap({ explainer[$0] }).min() {
                kept[index].steps.insert(contentsOf: finding.corroboration, at: 0)
                kept[index].severity = min(kept[index].severity, finding.severity)
                kept[index].contradictsDeclaration = kept[index].contradictsDeclaration || finding.contradictsDeclaration
                kept[index].showsGrowth = kept[index].showsGrowth || finding.showsGrowth
                continue
            }
            for object in finding.explained where explainer[object] == nil { explainer[object] = kept.count }
            kept.append(finding)
        }
        return kept
    }
}
