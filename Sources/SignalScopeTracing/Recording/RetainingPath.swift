/// Why objects of one heap snapshot are alive, as a leak finder that follows an object
/// which should be gone shows it (``path(to:)``). The snapshot's indexes are built once, so
/// that each path costs what its search reaches, not the whole heap: a batch of 2,000
/// watched objects judged from one snapshot took minutes when each path indexed it anew.
struct RetainingPaths {
    private let objects: [HeapSnapshot.Object]
    private let references: [HeapSnapshot.Reference]
    private let byAddress: [UInt: Int]
    /// The exact strong references to each object, counted whoever holds them.
    private let exactCount: [Int: Int]
    /// The exact strong references to each object from objects of the snapshot: the
    /// reference's position and its holder.
    private let holders: [Int: [(position: Int, holder: Int)]]
    /// The strong references to each object that a conservative scan read, counted.
    private let inexactCount: [Int: Int]
    /// For each object that an object held from outside reaches, the reference that reaches it
    /// first breadth first from all of them at once, and that reference's holder: the
    /// shortest chains to every such object, found in one pass over the snapshot.
    private let parents: [Int: (position: Int, holder: Int)]
    /// Whether the snapshot did not see the whole heap.
    let sawPartOfTheHeap: Bool

    init(_ heap: HeapSnapshot) {
        sawPartOfTheHeap = heap.sawPartOfTheHeap
        objects = heap.objects
        references = heap.references
        let index = Dictionary(objects.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        byAddress = Dictionary(objects.enumerated().map { ($1.vertex.address, $0) }, uniquingKeysWith: { first, _ in first })
        var exactCount: [Int: Int] = [:]
        var holders: [Int: [(position: Int, holder: Int)]] = [:]
        var children: [Int: [(position: Int, child: Int)]] = [:]
        var inexactCount: [Int: Int] = [:]
        for (position, reference) in references.enumerated() where !reference.found.isWeak {
            guard let to = index[reference.to] else { continue }
            guard reference.found.isExact else {
                inexactCount[to, default: 0] += 1
                continue
            }
            exactCount[to, default: 0] += 1
            if let from = index[reference.from] {
                holders[to, default: []].append((position, from))
                children[from, default: []].append((position, to))
            }
        }
        self.exactCount = exactCount
        self.holders = holders
        self.inexactCount = inexactCount
        var parents: [Int: (position: Int, holder: Int)] = [:]
        var queue = heap.objects.indices.filter { holders[$0] == nil || Self.isHeldFromOutside($0, heap.objects, exactCount, inexactCount) }
        let sources = Set(queue)
        var head = 0
        while head < queue.count {
            let current = queue[head]
            head += 1
            for (position, child) in children[current] ?? [] where parents[child] == nil && !sources.contains(child) {
                parents[child] = (position, current)
                queue.append(child)
            }
        }
        self.parents = parents
    }

    /// Held from outside the snapshot by the one test (``TraceHeap/isHeldFromOutside(retainCount:exactReferences:)``),
    /// and reached by no reference a conservative scan found: such an object is no start of
    /// the search, whose chain goes through that holder instead, and the reader judges what
    /// holds it from the counts the chain carries (``RetainingPath/start``).
    private static func isHeldFromOutside(
        _ object: Int, _ objects: [HeapSnapshot.Object], _ exactCount: [Int: Int], _ inexactCount: [Int: Int]
    ) -> Bool {
        inexactCount[object] == nil
            && TraceHeap.isHeldFromOutside(retainCount: objects[object].vertex.retainCount, exactReferences: exactCount[object] ?? 0)
    }

    /// Whether the snapshot holds an object at `address`.
    func reaches(_ address: UInt) -> Bool { byAddress[address] != nil }

    /// The shortest chain of strong references, each read exactly, that ends at the object at
    /// `address`, from an object held from outside the snapshot (its retain count is not the
    /// references the snapshot shows to it, so a global, a static, a thread's stack or an
    /// object the walk did not reach holds it). When nothing outside holds any of its
    /// holders, the shortest cycle through the object, or the cycle that holds what holds
    /// it. `nil` when the walk did not reach it.
    func path(to address: UInt) -> RetainingPath? {
        guard let target = byAddress[address] else { return nil }
        let (objects, references, holders) = (objects, references, holders)
        func isHeldFromOutside(_ object: Int) -> Bool { Self.isHeldFromOutside(object, objects, exactCount, inexactCount) }
        // Held, through its shortest chain, by an object held from outside.
        if holders[target] == nil || isHeldFromOutside(target) || parents[target] != nil {
            var chain: [HeapSnapshot.Reference] = []
            var used: Set<Int> = [target]
            var current = target
            while let step = parents[current] {
                chain.append(references[step.position])
                current = step.holder
                used.insert(current)
            }
            let start = TraceHeap.Holding(
                retainCount: objects[current].vertex.retainCount, exactReferences: exactCount[current] ?? 0,
                inexactReferences: inexactCount[current] ?? 0)
            return RetainingPath(
                start: start, target: objects[target], objects: used.sorted().map { objects[$0] }, chain: chain.reversed(), isCycle: false)
        }
        // Nothing held from outside reaches it (else the pass above would have): a cycle holds
        // it. Breadth first from the object towards its holders, each held by others of the
        // snapshot: reaching the object again closes a cycle through it. `via` maps a holder
        // to its reference down the search's tree and what that reference holds.
        var via: [Int: (position: Int, child: Int)] = [:]
        var queue = [target]
        var head = 0
        var cycleEnd: (position: Int, child: Int)?
        while head < queue.count {
            let current = queue[head]
            head += 1
            for (position, holder) in holders[current] ?? [] {
                if holder == target {
                    if cycleEnd == nil { cycleEnd = (position, current) }
                    continue
                }
                guard via[holder] == nil else { continue }
                via[holder] = (position, current)
                queue.append(holder)
            }
        }
        // The objects the chain runs through, as it is built.
        var used: Set<Int> = [target]
        /// The references from `object` down to the target, along the search's tree.
        func down(from object: Int) -> [HeapSnapshot.Reference] {
            var chain: [HeapSnapshot.Reference] = []
            var current = object
            used.insert(object)
            while current != target, let step = via[current] {
                chain.append(references[step.position])
                current = step.child
                used.insert(current)
            }
            return chain
        }
        let chain: [HeapSnapshot.Reference]
        if let cycleEnd {
            // Round the cycle: from the object, along what it holds, back to it.
            chain = [references[cycleEnd.position]] + down(from: cycleEnd.child)
        } else {
            // A cycle that does not run through the object holds it. Up from the last object
            // reached until an object comes round again; then round that cycle from its
            // member nearest the object, and down from there (a way that meets no other
            // member: it only goes to objects reached earlier).
            var seen: [Int: Int] = [:]
            var upward: [(position: Int, holder: Int)] = []
            var current = queue[queue.count - 1]
            while seen[current] == nil {
                seen[current] = upward.count
                let step = holders[current]![0]
                upward.append(step)
                current = step.holder
            }
            let cycle = Array(upward[seen[current]!...].reversed())
            let order = Dictionary(uniqueKeysWithValues: queue.enumerated().map { ($1, $0) })
            let entry = cycle.indices.min { order[cycle[$0].holder]! < order[cycle[$1].holder]! }!
            let round = cycle[entry...] + cycle[..<entry]
            used.formUnion(round.map(\.holder))
            chain = round.map { references[$0.position] } + down(from: cycle[entry].holder)
        }
        return RetainingPath(start: nil, target: objects[target], objects: used.sorted().map { objects[$0] }, chain: chain, isCycle: true)
    }
}

/// What ``RetainingPaths/path(to:)`` found.
struct RetainingPath {
    /// What the snapshot counted of the chain's first object (the target, for an empty
    /// chain), for the reader to judge whether something outside holds it; `nil` for a cycle.
    let start: TraceHeap.Holding?
    /// The object that should have been freed.
    let target: HeapSnapshot.Object
    /// The objects the chain runs through, the target included.
    let objects: [HeapSnapshot.Object]
    /// The strong references, in order, from the outermost holder to the target (for a
    /// cycle, round the cycle, then down to the target if it is not on it); empty when
    /// nothing in the snapshot holds the target.
    let chain: [HeapSnapshot.Reference]
    /// Whether the chain's objects, and everything that holds them, are held only by one
    /// another: nothing outside holds them.
    let isCycle: Bool
}
