@_spi(Locking) import SignalScope
import Synchronization

/// Gives every distinct string of a recording a small id, so records carry 4-byte ids
/// instead of text. Used when nodes and subscriptions are created, never per event.
/// Source locations are keyed by their literal's address, which costs no hashing of text.
///
/// Text made at run time (`named(_:)` strings, type names, paths) is remembered only up to
/// ``capacity`` strings, then forgotten all at once: a program that names a signal after
/// every search query must not grow the recorder for the whole run. A string met again after
/// that is written again under a new id, which readers accept (an id names one string, a
/// string may have several ids).
final class StringTable: Sendable {
    static let capacity = 4_096

    private struct State {
        var ids: [String: UInt32] = [:]
        var literals: [UInt: UInt32] = [:]
        /// The literals met last, by their address's low bits, in front of `literals`: a
        /// program makes its nodes and subscriptions at a few call sites over and over, and
        /// a slot's comparison costs a tenth of the dictionary's hash and probe.
        var recentLiterals = InlineArray<64, (address: UInt, id: UInt32)>(repeating: (0, 0))

        static func slot(of address: UInt) -> Int { Int(truncatingIfNeeded: (address >> 3) & 63) }

        mutating func literal(at address: UInt) -> UInt32? {
            let slot = Self.slot(of: address)
            if recentLiterals[slot].address == address { return recentLiterals[slot].id }
            guard let id = literals[address] else { return nil }
            recentLiterals[slot] = (address, id)
            return id
        }
    }

    private let state = LockedValue(State())
    private let nextID = Atomic<UInt32>(1)

    /// The id of `string`, and whether it is new (the caller must then record it).
    func id(of string: String) -> (id: UInt32, isNew: Bool) {
        state.withLock { state in
            if let id = state.ids[string] { return (id, false) }
            let id = nextID.add(1, ordering: .relaxed).oldValue
            if state.ids.count >= Self.capacity { state.ids.removeAll() }
            state.ids[string] = id
            return (id, true)
        }
    }

    /// An id no string will have: a code site's (``CodeSiteRecord``).
    func reserve() -> UInt32 {
        nextID.add(1, ordering: .relaxed).oldValue
    }

    /// The id of a literal such as `#fileID`, and its text when new.
    func id(of literal: StaticString) -> (id: UInt32, newText: String?) {
        guard literal.hasPointerRepresentation else {
            let (id, isNew) = id(of: literal.description)
            return (id, isNew ? literal.description : nil)
        }
        let address = UInt(bitPattern: literal.utf8Start)
        if let id = state.withLock({ $0.literal(at: address) }) { return (id, nil) }
        let text = literal.description
        let (id, isNew) = id(of: text)
        state.withLock { $0.literals[address] = id }
        return (id, isNew ? text : nil)
    }
}
