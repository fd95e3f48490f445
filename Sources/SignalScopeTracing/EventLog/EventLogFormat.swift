/// The binary event log's constants. `docs/event-log.md` is its specification; the layout of
/// the prefix every record starts with is ``RecordPrefix``'s, and each kind's payload is its
/// ``EventRecord``'s (``EventRecords/all``), which a test checks that document against.
///
/// A log is a 16-byte header followed by records, each padded to a multiple of 8 bytes. All
/// integers are little-endian.
enum EventLogFormat {
    /// The first 8 bytes of every log.
    static let magic: [UInt8] = Array("SIGSCOPE".utf8)
    static let majorVersion: UInt16 = 3
    static let minorVersion: UInt16 = 7
    /// The major versions this reader reads: 3, and 2, which is 3 without batches.
    static let readableMajorVersions: ClosedRange<UInt16> = 2...3
    /// How the versions this reader reads are named in messages: `3.x (and 2.x)`.
    static var readableVersionsDescription: String {
        let older = readableMajorVersions.reversed().filter { $0 != majorVersion }.map { "\($0).x" }
        return "\(majorVersion).x" + (older.isEmpty ? "" : " (and \(older.joined(separator: ", ")))")
    }
    static let headerSize = 16
    static let prefixSize = 32
    /// Where a full record's kind byte is, after its 4-byte size (``RecordPrefix``): what
    /// the writer and the reader's first pass look at without decoding the prefix.
    static let kindOffset = 4
    /// The kind byte of a batch: a full record whose payload is records of one thread, the
    /// compact ones among them relative to where its prefix says that thread had got to.
    static let batchKind: UInt8 = 25
    /// The first byte of a compact record (``CompactRecord``), which a full record's, the
    /// low byte of its size, never is.
    static let compactForm: UInt8 = 1
    static let compactSize = 16
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

    /// The kind byte of filler a recorder may leave; readers skip it.
    static let paddingKind: UInt8 = 0

    static func header() -> [UInt8] {
        var bytes = magic
        bytes += withUnsafeBytes(of: majorVersion.littleEndian, Array.init)
        bytes += withUnsafeBytes(of: minorVersion.littleEndian, Array.init)
        bytes += [0, 0, 0, 0]
        return bytes
    }

    /// Whether a record's size field can be a real record's: at least a prefix, aligned, and
    /// within the bound (anything else is a corrupt log).
    static func isPlausibleRecordSize(_ size: Int) -> Bool {
        size >= prefixSize && size % 8 == 0 && size <= maximumRecordSize
    }

    /// The size of the record whose first bytes are `head` inside a batch, and whether it is
    /// compact; `nil` while `head` is too short to tell (a full record's size is its first
    /// four bytes).
    static func nestedRecordSize(_ head: UnsafeRawBufferPointer) -> (size: Int, isCompact: Bool)? {
        guard let first = head.first else { return nil }
        if first == compactForm { return (compactSize, true) }
        return head.count >= 4 ? (Int(head.u32(0)), false) : nil
    }

    /// Rounds a record size up to the 8-byte alignment every record keeps.
    static func aligned(_ size: Int) -> Int { (size + 7) & ~7 }
}
