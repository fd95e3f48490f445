import SignalScope
import SignalScopeTracing

/// The lines a finding's path closes with (what leaks with it, what else captures it): words
/// about the leak model's verdicts, kept with the rest of the phrasebook.
extension LeakModel {
    /// A path line naming what leaks along with a cycle, if anything.
    func dependentsLine(_ set: [ObjectID]) -> [FindingStep] {
        keptAliveLine(Set(dependents(of: set)), except: [])
    }

    /// A path line naming the user objects of `set` besides `except`, as leaking with them.
    func keptAliveLine(_ set: Set<ObjectID>, except: Set<ObjectID>) -> [FindingStep] {
        // Each type once, named by the first of its objects.
        var byName: [String: ObjectID] = [:]
        for id in set.subtracting(except).filter(isUser).sorted() where byName[objectLabel(id)] == nil { byName[objectLabel(id)] = id }
        let names = byName.sorted { $0.key < $1.key }.map { FindingStep.name($0.key, of: .object($0.value)) }
        guard let first = names.first else { return [] }
        return [names.dropFirst().reduce("it keeps alive with it: " + first) { $0 + ", " + $1 }]
    }

    /// A path line naming the other closures that capture the same object, by role and site:
    /// one leak is one finding, and each closure to fix is named in it.
    func alsoCapturedLine(_ closures: [(site: TraceSite, closure: TraceHeap.Closure)], name: FindingStep) -> [FindingStep] {
        guard !closures.isEmpty else { return [] }
        let shown = closures.prefix(Self.instancesShown).map { HeapRelation.closureWords($0.closure, isFirst: false) }
        var line: FindingStep = "\(name) is also captured by "
        for (index, words) in shown.enumerated() { line = index == 0 ? line + words : line + ", " + words }
        if closures.count > shown.count { line = line + " and \(closures.count - shown.count) more like them" }
        return [line]
    }
}
