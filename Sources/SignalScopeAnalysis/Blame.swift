import SignalScope
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
/// chain capturing `self`). When nothing can be blamed, the rules fall back on the closure
/// or property a chain round the set passes (``LeakModel/fixSite(of:)``, ``LeakModel/cut(of:)``).
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
    /// For a subscriber that holds the owner in a property of its own (an adapted library's
    /// `assign(to:on:)`): where its subscription was made, which is where the fix goes.
    let subscriberSite: TraceSite?
    /// Whether the way from the owner round to the capture passes nothing a person would
    /// recognise but the owner itself (the runtime, closures, boxes, collections and
    /// subscriptions' internals): `self-captured-observer`'s proof.
    let isSelfCapture: Bool
}

extension LeakModel {
    /// The blame for the leaked set `cycles[index]`, when it has an owner a reference can be
    /// blamed on: worked out once, whichever rule asks first.
    mutating func blame(ofCycle index: Int) -> Blame? {
        if let known = blames[index] { return known }
        let blame = blame(cycles[index])
        blames[index] = .some(blame)
        return blame
    }

    private func blame(_ set: [ObjectID]) -> Blame? {
        let members = Set(set)
        let owners = owners(of: set)
        guard !owners.isEmpty else { return nil }
        let ownerSet = Set(owners)
        // Checking every group against the whole set is quadratic; a set this large is blamed
        // by preference alone (which reference is blamed, never whether the set is reported).
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
                if let blame = makeBlame(owner: owner, [group], members: members) { return blame }
            }
            // Several closures capturing the owner (each stage of one chain): together.
            let captures = groups.filter { $0.key.closure != nil }
            if captures.count > 1, frees(Set(captures.flatMap(\.references))),
                let blame = makeBlame(owner: owner, captures, members: members)
            {
                return blame
            }
        }
        return nil
    }

    /// What a person edits to remove a reference into an owner: a closure (the one the
    /// runtime keeps on the way up from the capture, else the innermost with a site), or a
    /// stored property (by class and name).
    private struct GroupKey: Hashable, Comparable {
        let site: TraceSite?
        let closure: TraceHeap.Closure?
        /// `Type.property` for a property; a closure's name when it has no site.
        let name: String
        /// A subscriber's own property, for a subscriber that is an object of its library's.
        var subscriber: SubscriptionID? = nil

        /// Captures first (the fix is in the closure), then what subscribers hold, then by
        /// where they are.
        static func < (lhs: Self, rhs: Self) -> Bool {
            func order(_ key: Self) -> (Int, String, Int, String) {
                (key.closure != nil ? 0 : key.subscriber != nil ? 1 : 2, key.site?.file ?? "", key.site?.line ?? 0, key.name)
            }
            return order(lhs) < order(rhs)
        }
    }

    private typealias Group = (key: GroupKey, references: [TraceHeap.Reference])

    /// The references into `owner` from inside `members`, grouped by what a person edits.
    private func referenceGroups(into owner: ObjectID, within members: Set<ObjectID>) -> [Group] {
        var groups: [GroupKey: [TraceHeap.Reference]] = [:]
        for reference in references(to: owner) where members.contains(reference.from) {
            guard let key = groupKey(of: reference, within: members) else { continue }
            groups[key, default: []].append(reference)
        }
        return groups.map { ($0.key, $0.value) }.sorted { $0.key < $1.key }
    }

    /// Walks up from the reference's holder through what is neither a user object nor a
    /// runtime entity (closure contexts, boxes, collections), noting the closures it passes:
    /// a capture is fixed in the closure the runtime keeps (as ``fixSite(of:)`` chooses on a
    /// chain), a reference a user object's property leads to in that property.
    private func groupKey(of reference: TraceHeap.Reference, within members: Set<ObjectID>) -> GroupKey? {
        var step = reference
        var closures: [TraceHeap.Closure] = []
        var seen: Set<ObjectID> = []
        while seen.insert(step.from).inserted {
            if let closure = step.closure { closures.append(closure) }
            let holder = step.from
            let isPlumbing = !isUser(holder) && object(holder)?.role == nil
            if !isPlumbing {
                if let closure = closures.first(where: { $0.role != nil && $0.site != nil }) ?? closures.first(where: { $0.site != nil }) {
                    return GroupKey(site: closure.site, closure: closure, name: "")
                }
                if let closure = closures.first { return GroupKey(site: nil, closure: closure, name: closure.name ?? "") }
                // A library's subscriber holding the object itself, as `assign(to:on:)` does:
                // the fix is where the subscription was made.
                if case .subscription(let id)? = object(holder)?.role, step.kind == .storedProperty, let made = trace.subscriptions[id] {
                    return GroupKey(site: made.site, closure: nil, name: "", subscriber: id)
                }
                guard isUser(holder), step.kind == .storedProperty else { return nil }
                return GroupKey(site: nil, closure: nil, name: "\(objectLabel(holder)).\(step.path)")
            }
            guard let up = references(to: holder).first(where: { members.contains($0.from) }) else { return nil }
            step = up
        }
        return nil
    }

    /// The blame for `groups` of references into `owner`: the way round from the owner
    /// through each group's first reference (one search per group, however many instances).
    private func makeBlame(owner: ObjectID, _ groups: [Group], members: Set<ObjectID>) -> Blame? {
        let blamed = groups.flatMap(\.references)
        let arounds = groups.compactMap { group -> (key: GroupKey, around: [TraceHeap.Reference])? in
            let reference = group.references[0]
            let back = path(from: owner, to: { $0 == reference.from }, through: members.contains)
            guard !back.isEmpty || reference.from == owner else { return nil }
            return (group.key, back + [reference])
        }
        guard let first = arounds.first else { return nil }
        let plumbing = { (id: ObjectID) in id == owner || !self.isUser(id) || self.isInternal(id, in: members) }
        if first.key.subscriber != nil, let site = first.key.site {
            return Blame(
                owner: owner, references: blamed, around: first.around, closures: [], property: nil, subscriberSite: site,
                isSelfCapture: first.around.allSatisfy { plumbing($0.from) && plumbing($0.to) })
        }
        if first.key.closure != nil {
            let closures = arounds.compactMap { entry in
                entry.key.closure.flatMap { closure in entry.key.site.map { (site: $0, closure: closure, around: entry.around) } }
            }
            // A closure with no site cannot be pointed at: the rules' own fallbacks place it.
            guard let chosen = closures.first else { return nil }
            return Blame(
                owner: owner, references: blamed, around: chosen.around, closures: closures, property: nil, subscriberSite: nil,
                isSelfCapture: chosen.around.allSatisfy { plumbing($0.from) && plumbing($0.to) })
        }
        // A stored property: the last one of a user object on the way back to the owner.
        guard let property = first.around.last(where: { isUser($0.from) && $0.kind == .storedProperty }) else { return nil }
        return Blame(
            owner: owner, references: blamed, around: first.around, closures: [], property: (property.from, property.path),
            subscriberSite: nil, isSelfCapture: false)
    }
}
