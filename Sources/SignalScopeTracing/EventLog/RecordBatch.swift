/// A record as a log stores it, full or compact, with the prefix it says (a compact record's
/// made absolute from where its thread had got to).
struct StoredRecord {
    let prefix: RecordPrefix
    /// The record in its compact form; `nil` for a full record.
    let compact: CompactRecord?
    /// The kind's record type; `nil` for padding, a batch, or a kind of a newer minor version.
    let type: (any EventRecord.Type)?

    @inline(__always) private init(prefix: RecordPrefix, compact: CompactRecord?) {
        self.prefix = prefix
        self.compact = compact
        type = EventRecords.byKind[Int(prefix.kind)]
    }

    /// The full record whose bytes (at least a prefix) are `bytes`.
    init(full bytes: UnsafeRawBufferPointer) {
        var reader = RecordReader(bytes: bytes)
        var prefix = RecordPrefix()
        prefix.fields(&reader)
        self.init(prefix: prefix, compact: nil)
    }

    /// `compact`, a record of a batch of `thread`'s records that had got to `position`.
    @inline(__always) init(_ compact: CompactRecord, thread: UInt32, after position: ThreadPosition) {
        self.init(prefix: compact.prefix(thread: thread, after: position), compact: compact)
    }

    /// The record whose whole bytes are `bytes`, inside a batch of `thread`'s records that
    /// had got to `position`, which it moves on.
    init(nested bytes: UnsafeRawBufferPointer, thread: UInt32, position: inout ThreadPosition) {
        if bytes.count >= EventLogFormat.compactSize, bytes.first == EventLogFormat.compactForm {
            self.init(CompactRecord(loadingFrom: bytes.baseAddress!), thread: thread, after: position)
        } else {
            self.init(full: bytes)
        }
        position = ThreadPosition(sequence: prefix.sequence, timestamp: prefix.timestamp)
    }

    /// The record whose whole bytes are `bytes`, decoded; `nil` when it does not decode.
    func record(_ bytes: UnsafeRawBufferPointer, strings: LogStrings) -> TraceRecord? {
        let event =
            if let compact {
                type?.compactEvent(subscription: UInt64(compact.subscription), detail: compact.detail, strings: strings)
            } else {
                type?.decode(UnsafeRawBufferPointer(rebasing: bytes[EventLogFormat.prefixSize...]), strings: strings)
            }
        guard let event else { return nil }
        return TraceRecord(sequence: prefix.sequence, timestamp: prefix.timestamp, thread: prefix.thread, event: event, cause: prefix.cause, inCreationBlock: prefix.inCreationBlock)
    }

    /// The string a string record defines.
    func string(_ bytes: UnsafeRawBufferPointer) -> StringRecord? {
        guard compact == nil, prefix.kind == StringRecord.kind else { return nil }
        return StringRecord(payload: UnsafeRawBufferPointer(rebasing: bytes[EventLogFormat.prefixSize...]))
    }

    /// The code site this record names, if it is one (read with the strings, in a first pass).
    func codeSite(_ bytes: UnsafeRawBufferPointer) -> CodeSiteRecord? {
        guard compact == nil, prefix.kind == CodeSiteRecord.kind else { return nil }
        return CodeSiteRecord(payload: UnsafeRawBufferPointer(rebasing: bytes[EventLogFormat.prefixSize...]))
    }

    /// Whether the reader reads this record in its first pass, not as an event.
    var isReadFirst: Bool { compact == nil && Self.isReadFirst(kind: prefix.kind) }

    /// Whether the reader reads a full record of `kind` in its first pass: the first pass
    /// asks this of a batch's full records before decoding their prefixes.
    static func isReadFirst(kind: UInt8) -> Bool { kind == StringRecord.kind || kind == CodeSiteRecord.kind }
}

/// Frames one thread's records, as the writer drains them from its buffer, into batches
/// (docs/event-log.md, "Batches and compact records"): each batch's prefix names the thread
/// and where its records had got to, which the compact records inside are relative to.
struct BatchFraming {
    private let thread: UInt32
    /// Where the thread's records had got to, after the last one framed.
    private(set) var position: ThreadPosition
    /// Where the open batch starts in the output, if one is open.
    private var start: Int?

    init(thread: UInt32, position: ThreadPosition) {
        self.thread = thread
        self.position = position
    }

    /// Appends `record`, one whole record of the thread's, to `output`, in a batch.
    mutating func append(_ record: UnsafeRawBufferPointer, to output: inout [UInt8]) {
        if let start, output.count - start + record.count > EventLogFormat.maximumRecordSize { close(&output) }
        if start == nil {
            start = output.count
            var prefix = [UInt8](repeating: 0, count: EventLogFormat.prefixSize)
            prefix.withUnsafeMutableBytes { bytes in
                RecordPrefix(kind: EventLogFormat.batchKind, thread: thread, sequence: position.sequence, timestamp: position.timestamp)
                    .write(to: bytes.baseAddress!)
            }
            output += prefix
        }
        output.append(contentsOf: record)
        _ = StoredRecord(nested: record, thread: thread, position: &position)
    }

    /// Ends the open batch, if any, by writing its size.
    mutating func close(_ output: inout [UInt8]) {
        guard let start else { return }
        self.start = nil
        withUnsafeBytes(of: UInt32(output.count - start).littleEndian) { size in
            output.replaceSubrange(start..<(start + 4), with: size)
        }
    }
}

/// Records held in memory, a batch's one by one: what a live reader polls, and what tests
/// take apart.
enum RecordsInMemory {
    /// Visits each complete record at the start of `bytes` (records, no header) with its byte
    /// range, and the start of the batch holding it (a batch is visited too, before its
    /// records, with `nil`). Returns where the complete records end, and whether the record
    /// there is corrupt rather than not yet whole.
    @discardableResult
    static func walk(_ bytes: UnsafeRawBufferPointer, _ visit: (StoredRecord, Range<Int>, _ batch: Int?) -> Void) -> (end: Int, corrupt: Bool) {
        var position = 0
        while bytes.count - position >= EventLogFormat.prefixSize {
            let stored = StoredRecord(full: UnsafeRawBufferPointer(rebasing: bytes[position..<(position + EventLogFormat.prefixSize)]))
            let size = Int(stored.prefix.size)
            guard EventLogFormat.isPlausibleRecordSize(size) else { return (position, true) }
            guard bytes.count - position >= size else { break }
            visit(stored, position..<(position + size), nil)
            if stored.prefix.kind == EventLogFormat.batchKind {
                var thread = ThreadPosition(sequence: stored.prefix.sequence, timestamp: stored.prefix.timestamp)
                var nested = position + EventLogFormat.prefixSize
                let end = position + size
                // A damaged record loses the rest of its batch, as when reading a file.
                while nested < end {
                    let head = UnsafeRawBufferPointer(rebasing: bytes[nested..<min(nested + EventLogFormat.prefixSize, end)])
                    guard let found = EventLogFormat.nestedRecordSize(head),
                        found.isCompact || EventLogFormat.isPlausibleRecordSize(found.size), nested + found.size <= end
                    else { break }
                    let range = nested..<(nested + found.size)
                    visit(StoredRecord(nested: UnsafeRawBufferPointer(rebasing: bytes[range]), thread: stored.prefix.thread, position: &thread), range, position)
                    nested += found.size
                }
            }
            position += size
        }
        return (position, false)
    }
}
