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

        /// The immortal strings met last (see ``StringTable/immortalBits(of:)``), by their
        /// words, in front of `ids`: the runtime names its nodes with literals (`map`,
        /// `just`), which hashing as text cost about a fifth of recording a node.
        var recentTexts = InlineArray<64, (bits: (UInt64, UInt64), id: UInt32)>(repeating: ((0, 0), 0))

        static func slot(of address: UInt) -> Int { Int(truncatingIfNeeded: (address >> 3) & 63) }

        static func slot(of bits: (UInt64, UInt64)) -> Int {
            Int(truncatingIfNeeded: ((bits.0 ^ bits.1) &* 0x9E37_79B9_7F4A_7C15) >> 58)
        }

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
        let bits = Self.immortalBits(of: string)
        return state.withLock { state in
            let slot = bits.map(State.slot(of:)) ?? 0
            if let bits, state.recentTexts[slot].bits == bits { return (state.recentTexts[slot].id, false) }
            let found = state.ids[string]
            let id = found ?? nextID.add(1, ordering: .relaxed).oldValue
            if found == nil {
                if state.ids.count >= Self.capacity {
                    state.ids.removeAll()
                    state.recentTexts = .init(repeating: ((0, 0), 0))
                }
                state.ids[string] = id
            }
            if let bits { state.recentTexts[slot] = (bits, id) }
            return (id, found == nil)
        }
    }

    /// A string's two words when they name its text for the life of the process, `nil`
    /// otherwise: an immortal string's (a literal, or text short enough to sit in the words
    /// themselves), whose storage is never freed, so never reused for other text. Two
    /// strings with the same words are the same text (`String._isIdentical(to:)`); the
    /// immortal flag is the top bit of the second word, in the standard library's layout of
    /// a string on 64-bit platforms (`StringObject.swift`).
    static func immortalBits(of string: String) -> (UInt64, UInt64)? {
        #if _pointerBitWidth(_64)
        let bits = unsafeBitCast(string, to: (UInt64, UInt64).self)
        return bits.1 & (1 << 63) != 0 ? bits : nil
        #else
        return nil
        #endif
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
