/// The binary event log's layout. `docs/event-log.md` is its specification; this file and
/// that document change together.
///
/// A log is a 16-byte header followed by records. All integers are little-endian. Every
/// record starts with the same 32-byte prefix and is padded to a multiple of 8 bytes:
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 4 | total size of the record in bytes, prefix and padding included |
/// | 4 | 1 | kind (``RecordKind``) |
/// | 5 | 1 | cause kind (``CauseKind``; 0: no cause recorded) |
/// | 6 | 2 | reserved, 0 |
/// | 8 | 4 | thread id (small integers, in order of each thread's first record) |
/// | 12 | 4 | cause: how many sequence numbers back the causing record is |
/// | 16 | 8 | sequence number: one counter for the whole log, so records sort into the order they happened |
/// | 24 | 8 | monotonic timestamp, nanoseconds |
enum EventLogFormat {
    /// The first 8 bytes of every log.
    static let magic: [UInt8] = Array("SIGSCOPE".utf8)
    static let majorVersion: UInt16 = 2
    static let minorVersion: UInt16 = 0
    static let headerSize = 16
    static let prefixSize = 32
    /// No record is larger (a bound that tells a corrupt size from a real one).
    static let maximumRecordSize = 1 << 20
    /// Value and error summaries are cut to this many characters.
    static let summaryLimit = 80
    /// A string read from a trace (a name, a type, a file, a function, a property path, a
    /// value) keeps at most this many Unicode scalars, and a send stack at most
    /// ``stackReadLimit``; a longer one is cut and ends with `…`. A trace from elsewhere may
    /// hold any, and every output repeats names: one 400 KB name used by 300 nodes made a
    /// report of gigabytes.
    static let stringReadLimit = 256
    static let stackReadLimit = 4_096

    /// `text` cut to `limit` Unicode scalars, with `…` where it was cut; and whether it was.
    static func capped(_ text: String, limit: Int) -> (text: String, wasCut: Bool) {
        guard text.utf8.count > limit, text.unicodeScalars.count > limit else { return (text, false) }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: text.unicodeScalars.prefix(limit - 1))
        kept.append("…")
        return (String(kept), true)
    }

    /// `next` records without a value summary store this length.
    static let noSummary = UInt32.max

    static func header() -> [UInt8] {
        var bytes = magic
        bytes += withUnsafeBytes(of: majorVersion.littleEndian, Array.init)
        bytes += withUnsafeBytes(of: minorVersion.littleEndian, Array.init)
        bytes += [0, 0, 0, 0]
        return bytes
    }

    /// Rounds a record size up to the 8-byte alignment every record keeps.
    static func aligned(_ size: Int) -> Int { (size + 7) & ~7 }
}

/// The kind byte of a record.
enum RecordKind: UInt8 {
    /// Filler a recorder may leave; readers skip it.
    case padding = 0
    /// `u32 id, u32 byteCount, UTF-8 bytes`: a string later records refer to by id.
    case string = 1
    /// `u64 node, u8 kind, u8 traits, u8[2] 0, u32 name, u32 file, u32 function, u32 line, u32 parentCount,
    /// then per parent: u64 parent, u8 edgeKind, u8[7] 0`.
    case node = 2
    /// `u64 node, u32 name`: `named(_:)`.
    case nodeNamed = 3
    /// `u64 node, u64 parent, u8 edgeKind`: an edge that appeared after creation.
    case edge = 4
    /// `u64 subscription, u64 node, u64 parentSubscription (0: none), u32 file, u32 function, u32 line,
    /// u64 bindingTarget (0: none)`.
    case subscribe = 5
    /// `u64 subscription, u8 handlers` (bit 0 next, bit 1 error, bit 2 completed).
    case observerStored = 6
    /// `u64 subscription`.
    case observerReleased = 7
    /// `u64 subscription, u32 summaryLength (0xFFFFFFFF: not recorded), UTF-8 summary`.
    case next = 8
    /// `u64 subscription, u32 descriptionLength, UTF-8 description`.
    case error = 9
    /// `u64 subscription`.
    case completed = 10
    /// `u64 subscription, u8 cause`.
    case disposed = 11
    /// `u64 node, u64 subscription (0: sent to a subject), u8 event (0 next, 1 error, 2 completed),
    /// u8[3] 0, u32 stack, u32 file, u32 function, u32 line (0: no user frame)`: the call stack of
    /// the send, innermost first, and its first frame in user code.
    case violation = 12
    /// `u64 recordCount`: the recording stopped cleanly after this many records.
    case end = 13
    // 14 and 15 (objects captured by observers, read when each observer was stored) were
    // format 1's; format 2 finds captures in the closing heap walk.
    /// ``SnapshotRecord``: the records up to the next `end` describe what was alive when
    /// recording stopped.
    case snapshot = 16
    /// `u8 entity (0 node, 1 subscription, 2 object), u8 flags (bit 0: a subject that has
    /// terminated), u8[6] 0, u64 id, u64 retainCount`.
    case alive = 17
    // 18 (what an object's stored properties hold) was format 1's; the heap walk says.
    /// ``HeapObjectRecord``: in the snapshot, an object the heap walk reached.
    case heapObject = 19
    /// `u64 from, u64 to, u8 kind, u8 flags, u16 0, u32 path, u32 offset, u32 element,
    /// u32 closureRole, u32 closureFile, u32 closureLine, u32 closureName`: in the snapshot, a
    /// strong reference between two objects the heap walk reached.
    case reference = 20
    /// `i64 nanoseconds`: a `TestScheduler`'s virtual clock reads this (when it is made and before each action it runs)
    /// (nanoseconds since 2001-01-01, `Date`'s reference date).
    case virtualTime = 21
    /// `u32 typeName, u32 file, u32 function, u32 line`: in the snapshot, where a class of the
    /// program's whose instances the walk reached is declared.
    case typeSite = 22
}
