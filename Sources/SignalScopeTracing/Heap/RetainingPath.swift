extension HeapSnapshot {
    /// Why the object at `address` is alive, as a leak finder that follows an object which
    /// should be gone shows it: the shortest chain of strong references, each read exactly,
    /// that ends at it, from an object held from outside the snapshot (its retain count is
    /// more than the references the snapshot shows to it, so a global, a static, a thread's
    /// stack or an object the walk did not reach holds it). When nothing outside holds any
    /// of its holders, the shortest cycle through the object. `nil` when the walk did not
    /// reach it.
    func retainingPath(to address: UInt) -> RetainingPath? {
        guard let target = objects.firstIndex(where: { $0.vertex.address == address }) else { return nil }
        let index = Dictionary(uniqueKeysWithValues: objects.enumerated().map { ($1.id, $0) })
        var incoming: [Int: [Int]] = [:]
        var inexact: Set<Int> = []
        for (position, reference) in references.enumerated() where !reference.found.isWeak {
            guard let to = index[reference.to] else { continue }
            if reference.found.isExact { incoming[to, default: []].append(position) } else { inexact.insert(to) }
        }
        func isHeldFromOutside(_ object: Int) -> Bool {
            !inexact.contains(object) && objects[object].vertex.retainCount > (incoming[object]?.count ?? 0)
        }
        // Breadth first from the object towards its holders: the first object reached that
        // nothing holds ends the shortest chain; reaching the object again closes a cycle.
        var via: [Int: Int] = [:]
        var queue = [target]
        var head = 0
        var cycleEnd: Int?
        var start: Int?
        while head < queue.count, start == nil {
            let current = queue[head]
            head += 1
            let holders = incoming[current] ?? []
            if holders.isEmpty || isHeldFromOutside(current) {
                start = current
                break
            }
            for position in holders {
                guard let holder = index[references[position].from] else { continue }
                if holder == target {
                    if cycleEnd == nil { cycleEnd = position }
                    continue
                }
                guard via[holder] == nil else { continue }
                via[holder] = position
                queue.append(holder)
            }
        }
        var chain: [Reference] = []
        if let start {
            var current = start
            while current != target, let position = via[current] {
                chain.append(references[position])
                current = index[references[position].to]!
            }
        } else if let cycleEnd {
            // Round the cycle: from the object, along what it holds, back to it.
            chain = [references[cycleEnd]]
            var current = index[references[cycleEnd].to]!
            while current != target, let position = via[current] {
                chain.append(references[position])
                current = index[references[position].to]!
            }
        }
        let used = Set(chain.flatMap { [$0.from, $0.to] })
        return RetainingPath(
            isHeldFromOutside: start.map(isHeldFromOutside) ?? false,
            target: objects[target], objects: objects.filter { used.contains($0.id) || $0.id == objects[target].id },
            chain: chain, isCycle: start == nil && cycleEnd != nil, hasInexactHolders: chain.isEmpty && inexact.contains(target))
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
    /// cycle, from the target round to it again); empty when nothing in the snapshot holds
    /// the target.
    let chain: [HeapSnapshot.Reference]
    /// Whether the chain is a cycle nothing outside holds.
    let isCycle: Bool
    /// Whether the only holders in the snapshot are words a conservative scan found.
    let hasInexactHolders: Bool
}
