import SignalScope

/// Fields stored one after another, declared once by ``fields(_:)``: the same declaration
/// writes them, reads them, measures them and describes them (the layout docs/event-log.md
/// is checked against), so a layout cannot be written one way and read another.
protocol RecordFields: SendableMetatype {
    /// Every field zero: what a reader fills in.
    init()
    /// Visits the fields in the order they are stored.
    mutating func fields(_ visitor: inout some RecordFieldVisitor)
}

/// One kind of event-log record: its kind byte, its name in docs/event-log.md and its
/// payload. Adding a kind is one file with a type conforming to this, and one line in
/// ``EventRecords/all``; the recorder appends it, the reader decodes it, tests craft it.
protocol EventRecord: RecordFields {
    /// The kind byte in the record's prefix.
    static var kind: UInt8 { get }
    /// The kind's name in docs/event-log.md's table.
    static var name: String { get }
    /// What the record says, its string ids looked up in `strings`; `nil` when its fields
    /// make no sense (an unknown code), so that the reader skips it as malformed.
    func event(strings: LogStrings) -> TraceEvent?

    /// Decodes a payload into the event it says. A requirement, with the default below,
    /// rather than an extension method: the reader calls it on a kind's type for every
    /// record, and an extension method on an existential type runs unspecialized, asking
    /// the runtime for `Optional<Self>`'s metadata each time (about 300 instructions).
    static func decode(_ payload: UnsafeRawBufferPointer, strings: LogStrings) -> TraceEvent?

    /// What a compact record of this kind says (``CompactEventRecord`` gives it); `nil` for a
    /// kind without a compact form, or a detail the kind does not have. A requirement rather
    /// than a cast to ``CompactEventRecord``, which would ask the runtime for the conformance
    /// on every record read (and the first time for each kind, scan the program's
    /// conformances).
    static func compactEvent(subscription: UInt64, detail: UInt8, strings: LogStrings) -> TraceEvent?
}

extension EventRecord {
    static func decode(_ payload: UnsafeRawBufferPointer, strings: LogStrings) -> TraceEvent? {
        Self(payload: payload)?.event(strings: strings)
    }

    static func compactEvent(subscription: UInt64, detail: UInt8, strings: LogStrings) -> TraceEvent? { nil }
}

/// Every record kind this version writes and reads.
enum EventRecords {
    static let all: [any EventRecord.Type] = [
        StringRecord.self, NodeRecord.self, NodeNamedRecord.self, EdgeRecord.self, SubscribeRecord.self,
        ObserverStoredRecord.self, ObserverReleasedRecord.self, NextRecord.self, ErrorRecord.self, CompletedRecord.self,
        DisposedRecord.self, ViolationRecord.self, EndRecord.self, SnapshotRecord.self, AliveRecord.self,
        HeapObjectRecord.self, ReferenceRecord.self, VirtualTimeRecord.self, TypeSiteRecord.self, RetainedRecord.self,
        ReleasedRecord.self, CheckpointRecord.self, CodeSiteRecord.self, DemandRecord.self,
        LibraryTypeRecord.self, DroppedDisposableRecord.self,
    ]

    /// The record types by kind byte (`nil`: padding, or a kind a newer minor version added).
    static let byKind: [(any EventRecord.Type)?] = {
        var table: [(any EventRecord.Type)?] = Array(repeating: nil, count: 256)
        for type in all {
            precondition(table[Int(type.kind)] == nil && type.kind != EventLogFormat.paddingKind, "two record kinds share \(type.kind)")
            table[Int(type.kind)] = type
        }
        return table
    }()
}

/// What a record's fields are visited for.
protocol RecordFieldVisitor {
    mutating func visit(_ value: inout UInt8, _ name: StaticString)
    mutating func visit(_ value: inout UInt16, _ name: StaticString)
    mutating func visit(_ value: inout UInt32, _ name: StaticString)
    mutating func visit(_ value: inout UInt64, _ name: StaticString)
    mutating func visit(_ value: inout Int64, _ name: StaticString)
    /// `count` bytes that are always 0.
    mutating func zeros(_ count: Int)
    /// `u32 length`, then that many bytes of UTF-8; `nil` is stored as the length
    /// 0xFFFFFFFF with no bytes. Always a payload's last field.
    mutating func text(_ value: inout String?, _ lengthName: StaticString)
    /// `u32 count`, then each element's fields. A payload's last field, but for ``appended(_:_:)``
    /// ones.
    mutating func list<Element: RecordFields>(_ elements: inout [Element], _ countName: StaticString, each: StaticString)
    /// A field a later minor version added at the payload's end: a payload of an older log
    /// ends just before it, and it reads as 0 (a reader of the older minor version reads the
    /// payload it knows and never looks past it).
    mutating func appended(_ value: inout UInt64, _ name: StaticString)
}

extension RecordFieldVisitor {
    /// A text field that is always there.
    mutating func text(_ value: inout String, _ lengthName: StaticString) {
        var optional: String? = value
        text(&optional, lengthName)
        value = optional ?? ""
    }
}

/// The length a `nil` text stores.
private let absentText = UInt32.max

/// Counts a payload's bytes.
struct RecordSize: RecordFieldVisitor {
    var bytes = 0

    @inline(__always) mutating func visit(_ value: inout UInt8, _ name: StaticString) { bytes += 1 }
    @inline(__always) mutating func visit(_ value: inout UInt16, _ name: StaticString) { bytes += 2 }
    @inline(__always) mutating func visit(_ value: inout UInt32, _ name: StaticString) { bytes += 4 }
    @inline(__always) mutating func visit(_ value: inout UInt64, _ name: StaticString) { bytes += 8 }
    @inline(__always) mutating func visit(_ value: inout Int64, _ name: StaticString) { bytes += 8 }
    @inline(__always) mutating func zeros(_ count: Int) { bytes += count }
    @inline(__always) mutating func text(_ value: inout String?, _ lengthName: StaticString) { bytes += 4 + (value?.utf8.count ?? 0) }
    @inline(__always) mutating func list<Element: RecordFields>(_ elements: inout [Element], _ countName: StaticString, each: StaticString) {
        bytes += 4
        // Each element visited as a copy of its own: visiting it in place would copy the
        // whole array, which the record shares with whoever made it.
        for var element in elements { element.fields(&self) }
    }
    @inline(__always) mutating func appended(_ value: inout UInt64, _ name: StaticString) { bytes += 8 }
}

/// Writes a payload, little-endian, into memory the caller sized with ``RecordSize`` and zeroed.
struct RecordWriter: RecordFieldVisitor {
    let base: UnsafeMutableRawPointer
    private var offset = 0

    init(base: UnsafeMutableRawPointer) { self.base = base }

    @inline(__always) private mutating func store<Integer: FixedWidthInteger>(_ value: Integer) {
        base.storeBytes(of: value.littleEndian, toByteOffset: offset, as: Integer.self)
        offset += MemoryLayout<Integer>.size
    }

    @inline(__always) mutating func visit(_ value: inout UInt8, _ name: StaticString) { store(value) }
    @inline(__always) mutating func visit(_ value: inout UInt16, _ name: StaticString) { store(value) }
    @inline(__always) mutating func visit(_ value: inout UInt32, _ name: StaticString) { store(value) }
    @inline(__always) mutating func visit(_ value: inout UInt64, _ name: StaticString) { store(value) }
    @inline(__always) mutating func visit(_ value: inout Int64, _ name: StaticString) { store(value) }
    @inline(__always) mutating func zeros(_ count: Int) { offset += count }
    @inline(__always) mutating func text(_ value: inout String?, _ lengthName: StaticString) {
        guard var text = value else { return store(absentText) }
        text.withUTF8 { utf8 in
            store(UInt32(utf8.count))
            if let start = utf8.baseAddress { (base + offset).copyMemory(from: start, byteCount: utf8.count) }
            offset += utf8.count
        }
    }
    @inline(__always) mutating func list<Element: RecordFields>(_ elements: inout [Element], _ countName: StaticString, each: StaticString) {
        store(UInt32(elements.count))
        // As in ``RecordSize``: a copy of each element, never of the array.
        for var element in elements { element.fields(&self) }
    }
    @inline(__always) mutating func appended(_ value: inout UInt64, _ name: StaticString) { store(value) }
}

/// Reads a payload, checking every field against its end.
struct RecordReader: RecordFieldVisitor {
    let bytes: UnsafeRawBufferPointer
    private var offset = 0
    /// Whether the payload ended before its fields did.
    private(set) var isMalformed = false

    init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    // Integer fields are read inline, as the writer writes every field: one read out of line
    // cost a call, a prologue and a check of its own, about 26 instructions, and a full
    // record's prefix alone has seven.
    @inline(__always) private mutating func load<Integer: FixedWidthInteger>(_: Integer.Type) -> Integer {
        let size = MemoryLayout<Integer>.size
        guard !isMalformed, bytes.count - offset >= size else {
            isMalformed = true
            return 0
        }
        defer { offset += size }
        return Integer(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Integer.self))
    }

    @inline(__always) mutating func visit(_ value: inout UInt8, _ name: StaticString) { value = load(UInt8.self) }
    @inline(__always) mutating func visit(_ value: inout UInt16, _ name: StaticString) { value = load(UInt16.self) }
    @inline(__always) mutating func visit(_ value: inout UInt32, _ name: StaticString) { value = load(UInt32.self) }
    @inline(__always) mutating func visit(_ value: inout UInt64, _ name: StaticString) { value = load(UInt64.self) }
    @inline(__always) mutating func visit(_ value: inout Int64, _ name: StaticString) { value = load(Int64.self) }
    @inline(__always) mutating func zeros(_ count: Int) {
        if bytes.count - offset < count { isMalformed = true }
        offset += count
    }
    mutating func text(_ value: inout String?, _ lengthName: StaticString) {
        let length = load(UInt32.self)
        guard !isMalformed, length != absentText else { return value = nil }
        guard Int(length) <= bytes.count - offset else { return isMalformed = true }
        value = String(decoding: bytes[offset..<(offset + Int(length))], as: UTF8.self)
        offset += Int(length)
    }
    mutating func list<Element: RecordFields>(_ elements: inout [Element], _ countName: StaticString, each: StaticString) {
        let count = Int(load(UInt32.self))
        // A count the remaining bytes cannot hold is corrupt: never reserve for it.
        guard !isMalformed, count <= (bytes.count - offset) / max(Element().payloadSize, 1) else { return isMalformed = true }
        elements = []
        elements.reserveCapacity(count)
        for _ in 0..<count {
            var element = Element()
            element.fields(&self)
            elements.append(element)
        }
    }
    @inline(__always) mutating func appended(_ value: inout UInt64, _ name: StaticString) {
        // Absent (an older minor version's payload) or whole; part of one is a cut payload.
        value = !isMalformed && bytes.count == offset ? 0 : load(UInt64.self)
    }
}

extension RecordFields {
    /// The fields' size in bytes, unpadded.
    @inline(__always) var payloadSize: Int {
        var size = RecordSize()
        var copy = self
        copy.fields(&size)
        return size.bytes
    }

    /// Writes the payload at `payload`, which has ``payloadSize`` bytes.
    @inline(__always) func write(to payload: UnsafeMutableRawPointer) {
        var writer = RecordWriter(base: payload)
        var copy = self
        copy.fields(&writer)
    }

    /// Reads a payload; `nil` if its bytes end before its fields do.
    init?(payload: UnsafeRawBufferPointer) {
        var reader = RecordReader(bytes: payload)
        self.init()
        fields(&reader)
        if reader.isMalformed { return nil }
    }
}

/// A payload's layout as docs/event-log.md writes it: `u64 node`, `u8[2] 0`, ...
struct RecordLayout: RecordFieldVisitor {
    private(set) var fields: [String] = []

    mutating func visit(_ value: inout UInt8, _ name: StaticString) { fields.append("u8 \(name)") }
    mutating func visit(_ value: inout UInt16, _ name: StaticString) { fields.append("u16 \(name)") }
    mutating func visit(_ value: inout UInt32, _ name: StaticString) { fields.append("u32 \(name)") }
    mutating func visit(_ value: inout UInt64, _ name: StaticString) { fields.append("u64 \(name)") }
    mutating func visit(_ value: inout Int64, _ name: StaticString) { fields.append("i64 \(name)") }
    mutating func zeros(_ count: Int) { fields.append("u8[\(count)] 0") }
    mutating func text(_ value: inout String?, _ lengthName: StaticString) { fields += ["u32 \(lengthName)", "bytes"] }
    mutating func list<Element: RecordFields>(_ elements: inout [Element], _ countName: StaticString, each: StaticString) {
        fields += ["u32 \(countName)", "per \(each)"]
        var element = Element()
        element.fields(&self)
    }
    mutating func appended(_ value: inout UInt64, _ name: StaticString) { fields.append("u64 \(name)") }

    /// The layout of `Fields`.
    static func of<Fields: RecordFields>(_: Fields.Type) -> [String] {
        var layout = RecordLayout()
        var record = Fields()
        record.fields(&layout)
        return layout.fields
    }
}

/// The strings of a log, looked up by the records that refer to them, each cut to what a
/// reader keeps (``EventLogFormat/stringReadLimit``). A recorder numbers its strings from 1
/// up, so they are looked up by index (``IdentifierTable``): every node and subscription
/// record names two to four.
final class LogStrings {
    /// Each string cut to ``EventLogFormat/stringReadLimit``, and as the log stores it (cut
    /// only to ``EventLogFormat/stackReadLimit``).
    ///
    /// Unchecked: a reader's strings are used by one thread at a time, and the checks on a
    /// class's properties cost more than the lookups.
    @exclusivity(unchecked) private var cutStrings = IdentifierTable<String>()
    @exclusivity(unchecked) private var storedStrings = IdentifierTable<String>()
    /// The strings whose cut form is shorter than they are.
    @exclusivity(unchecked) private var cut: Set<UInt32> = []
    /// Sites known by their code, by the id records give as their file (``CodeSiteRecord``).
    @exclusivity(unchecked) private var codeSites: [UInt32: CodeSiteRecord] = [:]
    /// Whether a string or a text was cut.
    @exclusivity(unchecked) private(set) var wereCut = false

    init() {}

    /// Defines string `id` as `text` (already cut to ``EventLogFormat/stackReadLimit``); a
    /// later definition of the same id replaces it.
    func define(_ id: UInt32, as text: String) {
        let cutForm = EventLogFormat.capped(text, limit: EventLogFormat.stringReadLimit)
        storedStrings[UInt64(id)] = text
        cutStrings[UInt64(id)] = cutForm.text
        if cutForm.wasCut { cut.insert(id) } else if !cut.isEmpty { cut.remove(id) }
    }

    /// Defines the site that records name by `record`'s id.
    func define(_ record: CodeSiteRecord) {
        codeSites[record.site] = record
    }

    /// The string with id `id`, cut; `?` when the log has none.
    func string(_ id: UInt32) -> String {
        guard let text = cutStrings[UInt64(id)] else { return "?" }
        if !cut.isEmpty, cut.contains(id) { wereCut = true }
        return text
    }
    /// The string with id `id`, `nil` for id 0 (none).
    func optional(_ id: UInt32) -> String? { id == 0 ? nil : string(id) }
    /// The string with id `id` as the log stores it (a send stack, cut only to
    /// ``EventLogFormat/stackReadLimit`` when the strings were read).
    func whole(_ id: UInt32) -> String { storedStrings[UInt64(id)] ?? "?" }
    /// A site from its string ids and line.
    func site(file: UInt32, function: UInt32, line: UInt32) -> TraceSite {
        if line == 0, let code = codeSites[file] {
            return TraceSite(file: string(code.file), line: Int(code.line), function: string(code.function))
        }
        return TraceSite(file: string(file), line: Int(line), function: string(function))
    }
    /// A text a record holds, cut.
    func capped(_ text: String) -> String {
        let capped = EventLogFormat.capped(text, limit: EventLogFormat.stringReadLimit)
        if capped.wasCut { wereCut = true }
        return capped.text
    }
}
