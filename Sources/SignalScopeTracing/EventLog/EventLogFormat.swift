/// The binary event log's constants. `docs/event-log.md` is its specification; the layout of
/// the prefix every record starts with is ``RecordPrefix``'s, and each kind's payload is its
/// ``EventRecord``'s (``EventRecords/all``), which a test checks that document against.
///
/// A log is a 16-byte header followed by records, each padded to a multiple of 8 bytes. All
/// integers are little-endian.
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

    /// Rounds a record size up to the 8-byte alignment every record keeps.
    static func aligned(_ size: Int) -> Int { (size + 7) & ~7 }
}
