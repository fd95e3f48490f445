extension HeapSnapshot {
    /// Why the object at `address` is alive, as a leak finder that follows an object which
    /// should be gone shows it: the shortest chain of strong references, each read exactly,
    /// that ends at it, from an object held from outside the snapshot (its retain count is
    /// not the references the snapshot shows to it, so a global, a static, a thread's stack
    /// or an object the walk did not reach holds it). When nothing outside holds any of its
    /// holders, the shortest cycle through the object, or the cycle that holds what holds
    /// it. `nil` when the walk did not reach it.
    func retainingPath(to address: UInt) -> RetainingPath? {
        guard let target = objects.firstIndex(where: { $0.vertex.address == address }) else { return nil }
        let index = Dictionary(uniqueKeysWithValues: objects.enumerated().map { ($1.id, $0) })
        var incoming: [Int: [Int]] = [:]
        var inexact: Set<Int> = []
        for (position, reference) in references.enumerated() where !reference.found.isWeak {
            guard let to = index[reference.to] else { continue }
            if reference.found.isExact { incoming[to, default: []].append(position) } else { inexact.insert(to) }
        }
        // As the leak analysis judges it (LeakModel.isHeldFromOutside): a retain count that is
        // not made up of the exact references found means something the walk did not see
        // holds the object (a count below them, a misread: held, never free).
        func isHeldFromOutside(_ object: Int) -> Bool {
            !inexact.contains(object) && objects[object].vertex.retainCount != (incoming[object]?.count ?? 0)
        }
        func holder(_ position: Int) -> Int { index[references[position].from]! }
        // Breadth first from the object towards its holders: the first object reached that
        // something outside holds, or that only words read conservatively hold, ends the
        // shortest chain; reaching the object again closes a cycle through it.
        var via: [Int: Int] = [:]
        var queue = [target]
        var head = 0
        var cycleEnd: Int?
        var start: Int?
        while head < queue.count {
            let current = queue[head]
            head += 1
            let holders = (incoming[current] ?? []).filter { index[references[$0].from] != nil }
            if holders.isEmpty || isHeldFromOutside(current) {
                start = current
                break
            }
            for position in holders {
                let holder = holder(position)
                if holder == target {
                    if cycleEnd == nil { cycleEnd = position }
                    continue
                }
                guard via[holder] == nil else { continue }
                via[holder] = position
                queue.append(holder)
            }
        }
        /// The references from `object` down to the target, along the search's tree.
        func down(from object: Int) -> [Reference] {
            var chain: [Reference] = []
            var current = object
            while current != target, let position = via[current] {
                chain.append(references[position])
                current = index[references[position].to]!
            }
            return chain
        }
        var chain: [Reference] = []
        if let start {
            chain = down(from: start)
        } else if let cycleEnd {
            // Round the cycle: from the object, along what it holds, back to it.
            chain = [references[cycleEnd]] + down(from: index[references[cycleEnd].to]!)
        } else {
            // Everything reached holds one another and nothing outside holds any of it: a
            // cycle that does not run through the object holds it. Up from the last object
            // reached until an object comes round again; then round that cycle from its
            // member nearest the object, and down from there (a way that meets no other
            // member: it only goes to objects reached earlier).
            var seen: [Int: Int] = [:]
            var upward: [Int] = []
            var current = queue[queue.count - 1]
            while seen[current] == nil {
                seen[current] = upward.count
                let position = incoming[current]!.first { index[references[$0].from] != nil }!
                upward.append(position)
                current = holder(position)
            }
            let cycle = Array(upward[seen[current]!...].reversed())
            let order = Dictionary(uniqueKeysWithValues: queue.enumerated().map { ($1, $0) })
            let entry = cycle.indices.min { order[holder(cycle[$0])]! < order[holder(cycle[$1])]! }!
            chain = (cycle[entry...] + cycle[..<entry]).map { references[$0] } + down(from: holder(cycle[entry]))
        }
        let first = chain.first.flatMap { index[$0.from] } ?? target
        let used = Set(chain.flatMap { [$0.from, $0.to] })
        return RetainingPath(
            isHeldFromOutside: start.map(isHeldFromOutside) ?? false,
            target: objects[target], objects: objects.filter { used.contains($0.id) || $0.id == objects[target].id },
            chain: chain, isCycle: start == nil, hasInexactHolders: start != nil && !isHeldFromOutside(first) && inexact.contains(first))
    }
}

/// What ``HeapSnapshot/retainingPath(to:)`` found.
struct RetainingPath {
    /// Whether the chain's first object is held from outside the snapshot as well.
    let isHeldFromOutside: Bool
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
    /// Whether the chain's first object (the target, for an empty chain) is held, besides
    /// what the chain shows, only by words a conservative scan found.
    let hasInexactHolders: Bool
}
