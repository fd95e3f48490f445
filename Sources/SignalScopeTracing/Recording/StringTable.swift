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
    }

    private let state = LockedValue(State())
    private let nextID = Atomic<UInt32>(1)

    /// The id of `string`, and whether it is new (the caller must then record it).
    func id(of string: String) -> (id: UInt32, isNew: Bool) {
        state.withLock { state in
            if let found = state.ids[string] { return (found, false) }
            let id = nextID.add(1, ordering: .relaxed).oldValue
            if state.ids.count >= Self.capacity { state.ids.removeAll() }
            state.ids[string] = id
            return (id, true)
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
        if let id = state.withLock({ $0.literals[address] }) { return (id, nil) }
        let text = literal.description
        let (id, isNew) = id(of: text)
        state.withLock { $0.literals[address] = id }
        return (id, isNew ? text : nil)
    }
}

/// The ids a thread was last given by a recording's ``StringTable``, for the literals and the
/// immortal strings it met (see ``StringTable/immortalBits(of:)``), found again without the
/// table's lock: a program makes its nodes and subscriptions at a few call sites over and
/// over, and the runtime names them with literals (`map`, `just`). Each slot holds what was
/// met last with its address's (or words') low bits; an id, once given, names its text for
/// the rest of the recording, so what a slot holds never goes stale.
///
/// Only the owning thread touches it (in its ``ThreadBuffer``). The slots are in memory of
/// their own: held inline, each lookup copied all of them out of the buffer first.
final class ThreadStringIDs {
    private static let slots = 64
    private let literals = UnsafeMutablePointer<(address: UInt, id: UInt32)>.allocate(capacity: slots)
    private let texts = UnsafeMutablePointer<(bits: (UInt64, UInt64), id: UInt32)>.allocate(capacity: slots)

    init() {
        literals.initialize(repeating: (0, 0), count: Self.slots)
        texts.initialize(repeating: ((0, 0), 0), count: Self.slots)
    }

    deinit {
        literals.deallocate()
        texts.deallocate()
    }

    private static func slot(of address: UInt) -> Int { Int(truncatingIfNeeded: (address >> 3) & UInt(slots - 1)) }

    private static func slot(of bits: (UInt64, UInt64)) -> Int {
        Int(truncatingIfNeeded: ((bits.0 ^ bits.1) &* 0x9E37_79B9_7F4A_7C15) >> 58)
    }

    func literal(at address: UInt) -> UInt32? {
        let entry = literals[Self.slot(of: address)]
        return entry.address == address ? entry.id : nil
    }

    func remember(literalAt address: UInt, id: UInt32) {
        literals[Self.slot(of: address)] = (address, id)
    }

    func text(_ bits: (UInt64, UInt64)) -> UInt32? {
        let entry = texts[Self.slot(of: bits)]
        return entry.bits == bits ? entry.id : nil
    }

    func remember(text bits: (UInt64, UInt64), id: UInt32) {
        texts[Self.slot(of: bits)] = (bits, id)
    }
}
