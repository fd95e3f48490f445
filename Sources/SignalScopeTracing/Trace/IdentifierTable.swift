import SignalScope

/// A table keyed by identifiers that a process hands out in increasing order (nodes,
/// subscriptions, a log's strings): kept in an array indexed by the identifier's distance
/// from (a little below) the first one stored, so that a lookup is a bounds check and a load
/// rather than a hash and a probe. An identifier below the array, or far beyond those stored
/// (a damaged or crafted log, or a table that keeps few of many), goes to a dictionary
/// instead: the array grows only to about twice the entries the table holds as it grows.
/// Tables here only grow (strings, ended subscriptions); one that removes keeps its array.
struct IdentifierTable<Value> {
    private var dense: [Value?] = []
    /// The identifier of the array's first slot: a little below the first one stored (a
    /// recording that starts in the middle of a process starts at its counters' values then,
    /// and what ends first is not always what began first).
    private var base: UInt64 = 0
    /// Entries whose identifier was outside the array when they were stored; the array may
    /// have grown over them since, so a lookup that finds an empty slot looks here too.
    private var sparse: [Key: Value] = [:]
    /// How many identifiers have a value.
    private(set) var count = 0

    /// Slots the array may hold beyond twice the entries: a table of a few entries with
    /// close identifiers stays an array. Half of it is left below the first identifier.
    private static var slack: UInt64 { 4096 }

    /// An identifier as the dictionary's key, hashed as identifiers are
    /// (``SignalScope/NodeID``): `UInt64`'s own hash is SipHash, out of line.
    private struct Key: Hashable {
        let identifier: UInt64
        init(_ identifier: UInt64) { self.identifier = identifier }
        func _rawHashValue(seed: Int) -> Int { identifierHash(identifier, seed: seed) }
    }

    subscript(identifier: UInt64) -> Value? {
        get {
            let slot = identifier &- base
            if identifier >= base, slot < UInt64(dense.count), let value = dense[Int(slot)] { return value }
            return sparse.isEmpty ? nil : sparse[Key(identifier)]
        }
        set {
            if !sparse.isEmpty, sparse.removeValue(forKey: Key(identifier)) != nil { count -= 1 }
            if dense.isEmpty, newValue != nil { base = identifier - min(identifier, Self.slack / 2) }
            let slot = identifier &- base
            if identifier >= base, slot < UInt64(dense.count) {
                count += (newValue == nil ? 0 : 1) - (dense[Int(slot)] == nil ? 0 : 1)
                dense[Int(slot)] = newValue
            } else if let newValue {
                if identifier >= base, slot < 2 * UInt64(count) + Self.slack {
                    // One by one: appending a `repeatElement` asks the runtime for its type's
                    // metadata each time, and the slots are usually one.
                    while dense.count < Int(slot) { dense.append(nil) }
                    dense.append(newValue)
                } else {
                    sparse[Key(identifier)] = newValue
                }
                count += 1
            }
        }
    }
}

extension IdentifierTable: Sendable where Value: Sendable {}
