import SignalScopeTracing

/// Which reference of a leaked set a person would cut: one leak is one finding, located where
/// the fix goes.
///
/// A leaked set is a strongly connected set of garbage (``LeakModel/cycles``). Its owners are
/// its user objects that are not a subscription's internals (``LeakModel/owners(of:)``), the
/// oldest first: an owner is made before what it makes, so the object the others were made
/// for is the oldest. The references into an owner from inside the set are grouped by what a
/// person edits (the closure that captures it, at its site; or the stored property, by its
/// class and name, every instance at once), and the blamed group is the first, towards the
/// oldest owner, whose removal frees every owner of the set (no cycle through an owner is
/// left: what remains is the runtime's own plumbing, which the owners' going away ends). When
/// no single group does, every capture of the oldest owner together (four operators of one
/// chain capturing `self`), else the old rule of thumb (``LeakModel/cut(of:)``).
struct Blame {
    /// The owner the blamed references point back to.
    let owner: ObjectID
    /// The blamed references, every instance (several models holding one navigation stack).
    let references: [TraceHeap.Reference]
    /// The cycle from the owner round through the first blamed reference back to it.
    let around: [TraceHeap.Reference]
    /// For captures: each closure to fix, where it is, by line; the first is the finding's
    /// location. Empty when the blamed references are a stored property.
    let closures: [(site: TraceSite, closure: TraceHeap.Closure, around: [TraceHeap.Reference])]
    /// For a stored property: the object whose property it is, and the property's path.
    let property: (holder: ObjectID, path: String)?
    /// Whether the way from the owner round to the capture passes nothing a person would
    /// recognise but the owner itself (the runtime, closures, boxes, collections and
    /// subscriptions' internals): `self-captured-observer`'s proof.
    let isSelfCapture: Bool
}

extension LeakModel {
    /// The blame for a leaked set, when it has an owner a reference can be blamed on.
    func blame(_ set: [ObjectID]) -> Blame? {
        let members = Set(set)
        let owners = owners(of: set)
        guard !owners.isEmpty else { return nil }
        let ownerSet = Set(owners)
        // Checking every group against the whole set is quadratic; a set this large is blamed
        // by preference alone.
        let checksFreeing = set.count <= 20_000
        func frees(_ removed: Set<TraceHeap.Reference>) -> Bool {
            guard checksFreeing else { return true }
            let sets = StronglyConnected.sets(of: set) { vertex in
                self.references(from: vertex).filter { members.contains($0.to) && !removed.contains($0) }.map(\.to)
            }
            return !sets.contains { component in
                guard component.contains(where: ownerSet.contains) else { return false }
                return component.count > 1 || references(from: component[0]).contains { $0.to == component[0] && !removed.contains($0) }
            }
        }
        for owner in owners {
            let groups = referenceGroups(into: owner, within: members)
            for group in groups where frees(Set(group.references)) {
                if let blame = makeBlame(owner: owner, group.references, isCapture: group.key.isCapture, members: members) {
                    return blame
                }
            }
            // Several closures capturing the owner (each stage of one chain): together.
            let captures = groups.filter(\.key.isCapture)
            if captures.count > 1, frees(Set(captures.flatMap(\.references))),
                let blame = makeBlame(owner: owner, captures.flatMap(\.references), isCapture: true, members: members)
            {
                return blame
            }
        }
        return nil
    }

    /// What a person edits to remove a reference into an owner: a closure (by the site of the
    /// closure the runtime keeps, else its name), or a stored property (by class and name).
    private struct GroupKey: Hashable, Comparable {
        let isCapture: Bool
        let file: String
        let line: Int
        let name: String

        /// Captures first (the fix is in the closure), then by where they are.
        static func < (lhs: Self, rhs: Self) -> Bool {
            (lhs.isCapture ? 0 : 1, lhs.file, lhs.line, lhs.name) < (rhs.isCapture ? 0 : 1, rhs.file, rhs.line, rhs.name)
        }
    }

    /// The references into `owner` from inside `members`, grouped by what a person edits: a
    /// capture by the closure whose context holds it (through boxes), a stored property by
    /// the holder's class and the property's name (through collections and boxes).
    private func referenceGroups(
        into owner: ObjectID, within members: Set<ObjectID>
    ) -> [(key: GroupKey, references: [TraceHeap.Reference])] {
        var groups: [GroupKey: [TraceHeap.Reference]] = [:]
        for reference in references(to: owner) where members.contains(reference.from) {
            guard let key = groupKey(of: reference, owner: owner, members: members) else { continue }
            groups[key, default: []].append(reference)
        }
        return groups.map { ($0.key, $0.value) }.sorted { $0.key < $1.key }
    }

    private func groupKey(of reference: TraceHeap.Reference, owner: ObjectID, members: Set<ObjectID>) -> GroupKey? {
        // Walk back from the reference's holder through what is neither a user object nor a
        // runtime entity, to the closure or property a person wrote.
        var holder = reference.from
        var step = reference
        var seen: Set<ObjectID> = []
        while seen.insert(holder).inserted {
            // A closure whose context is the captured object itself (it captures nothing else),
            // or a reference into a closure's context: the closure's capture.
            if step.closure != nil || object(holder)?.category == .closureContext {
                let around = path(from: owner, to: { $0 == reference.from }, through: members.contains) + [reference]
                let closure = step.closure ?? references(to: holder).lazy.compactMap(\.closure).first
                let site = fixSite(of: around)?.site ?? closure?.site
                return GroupKey(isCapture: true, file: site?.file ?? "", line: site?.line ?? 0, name: site == nil ? closure?.name ?? "" : "")
            }
            if isUser(holder) {
                guard step.kind == .storedProperty else { return nil }
                return GroupKey(isCapture: false, file: "", line: 0, name: "\(objectLabel(holder)).\(step.path)")
            }
            guard let object = object(holder) else { return nil }
            guard object.entity == nil, let up = references(to: holder).first(where: { members.contains($0.from) }) else { return nil }
            step = up
            holder = up.from
        }
        return nil
    }

    private func makeBlame(
        owner: ObjectID, _ blamed: [TraceHeap.Reference], isCapture: Bool, members: Set<ObjectID>
    ) -> Blame? {
        let arounds = blamed.map { reference in
            path(from: owner, to: { $0 == reference.from }, through: members.contains) + [reference]
        }
        guard let first = arounds.first(where: { $0.count > 1 || $0.first?.from == owner }) else { return nil }
        var closures: [TraceSite: (site: TraceSite, closure: TraceHeap.Closure, around: [TraceHeap.Reference])] = [:]
        for around in arounds {
            guard let (site, closure) = fixSite(of: around) else { continue }
            if let known = closures[site], known.around.count <= around.count { continue }
            closures[site] = (site, closure, around)
        }
        let sortedClosures = closures.values.sorted { ($0.site.file, $0.site.line) < ($1.site.file, $1.site.line) }
        if isCapture, let chosen = sortedClosures.first {
            let plumbing = { (id: ObjectID) in id == owner || !self.isUser(id) || self.isInternal(id, in: members) }
            let selfCapture = chosen.around.allSatisfy { plumbing($0.from) && plumbing($0.to) }
            return Blame(
                owner: owner, references: blamed, around: chosen.around, closures: sortedClosures, property: nil,
                isSelfCapture: selfCapture)
        }
        // A stored property: the last one of a user object on the way back to the owner.
        guard let property = first.last(where: { isUser($0.from) && $0.kind == .storedProperty }) else { return nil }
        return Blame(
            owner: owner, references: blamed, around: first, closures: [], property: (property.from, property.path),
            isSelfCapture: false)
    }
}
