/// How far the walk was allowed to go.
///
/// The walk explores objects breadth-first from the runtime's live objects; an app whose
/// heap is larger than the budget gets a trace that says so, and a `check` that fails
/// with exit code 3 rather than passing on what it could not see.
public struct HeapWalkLimits: Sendable, Hashable {
    /// How many objects the walk explores.
    public var objects: Int
    /// How many references from a live runtime object it follows.
    public var depth: Int

    public init(objects: Int, depth: Int) {
        self.objects = objects
        self.depth = depth
    }

    /// 200,000 objects, 10,000 references deep: an app's whole graph of signals and
    /// what they hold, walked in about a second (`docs/performance.md`).
    public static let standard = HeapWalkLimits(objects: 200_000, depth: 10_000)

    /// The standard limits, or those `SIGNALSCOPE_HEAP_OBJECTS` and
    /// `SIGNALSCOPE_HEAP_DEPTH` set (positive integers); a problem with either is
    /// described in `problems`, and the standard value kept.
    public static func fromEnvironment(_ environment: [String: String]) -> (limits: HeapWalkLimits, problems: [String]) {
        var limits = HeapWalkLimits.standard
        var problems: [String] = []
        for (name, keyPath) in [("SIGNALSCOPE_HEAP_OBJECTS", \HeapWalkLimits.objects), ("SIGNALSCOPE_HEAP_DEPTH", \HeapWalkLimits.depth)] {
            guard let text = environment[name] else { continue }
            if let value = Int(text), value > 0 {
                limits[keyPath: keyPath] = value
            } else {
                problems.append("\(name)=\(text) is not a positive integer; using \(limits[keyPath: keyPath])")
            }
        }
        return (limits, problems)
    }
}
