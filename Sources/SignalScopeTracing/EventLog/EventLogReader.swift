import Glibc
import HeapModule
import SignalScope

/// Decodes an event log (see EventLogFormat and docs/event-log.md) and visits its records
/// in sequence order, the order things happened, without keeping them.
///
/// Two passes: the first reads the strings (a record may refer to a string another thread
/// wrote later in the file) and where each thread's runs of records are; the second merges
/// the threads' runs by sequence number. Within a thread the file is already in sequence
/// order (each thread appends to its own buffer, which the writer copies out whole), so the
/// merge holds one cursor per thread: memory grows with the number of runs, not of records.
struct EventLogReader {
    private let source: LogSource
    private let path: String
    private var warnings: [String] = []

    /// Visits every record of `source` in sequence order, and returns the warnings and the
    /// log's minor format version; `path` names the log in messages. `progress` hears the
    /// fraction of the bytes decoded, at most once per percent.
    static func visit(
        _ source: LogSource, path: String, progress: (Double) -> Void = { _ in },
        _ visit: (TraceRecord) -> Void
    ) throws(TraceReadError) -> [String] {
        var reader = EventLogReader(source: source, path: path)
        try reader.read(progress: progress, visit)
        return reader.warnings
    }

    private init(source: LogSource, path: String) {
        self.source = source
        self.path = path
    }

    /// A record's prefix, and where it is.
    private struct Raw {
        let offset: Int
        let size: Int
        /// `nil` for padding, and for kinds this reader does not know (a newer minor
        /// version's), which it skips.
        let record: (any EventRecord.Type)?
        let kind: UInt8
        let thread: UInt32
        let sequence: UInt64
        let timestamp: UInt64
        let cause: TraceCause?

        /// The record's bytes in the log.
        var range: Range<Int> { offset..<(offset + size) }

        /// The prefix of the record whose bytes (`EventLogFormat.prefixSize` of them at
        /// least) start `bytes`.
        init(at offset: Int, prefix bytes: UnsafeRawBufferPointer) {
            var reader = RecordReader(bytes: bytes)
            var prefix = RecordPrefix()
            prefix.fields(&reader)
            self.offset = offset
            size = Int(prefix.size)
            kind = prefix.kind
            record = EventRecords.byKind[Int(prefix.kind)]
            thread = prefix.thread
            sequence = prefix.sequence
            timestamp = prefix.timestamp
            cause = prefix.cause
        }

        var isString: Bool { kind == StringRecord.kind }
    }

    private mutating func read(progress: (Double) -> Void, _ visit: (TraceRecord) -> Void) throws(TraceReadError) {
        var header = LogWindow(chunk: EventLogFormat.headerSize)
        guard header.load(0..<EventLogFormat.headerSize, from: source, limit: EventLogFormat.headerSize),
            header.withBytes(0..<8, { Array($0) }) == EventLogFormat.magic
        else {
            throw .notAnEventLog(path: path)
        }
        let (major, minor) = header.withBytes(8..<12) { ($0.u16(0), $0.u16(2)) }
        guard major == EventLogFormat.majorVersion else {
            throw .unsupportedVersion(path: path, major: major, minor: minor)
        }
        var strings: [UInt32: String] = [:]
        var stringsCut = false
        var runs: [Run] = []
        let (tail, end) = scan { raw, bytes in
            if raw.isString, let string = StringRecord(payload: Self.payload(of: bytes)) {
                let capped = EventLogFormat.capped(string.text, limit: EventLogFormat.stackReadLimit)
                if capped.wasCut { stringsCut = true }
                strings[string.id] = capped.text
            }
            if let last = runs.last, last.thread == raw.thread, last.end == raw.offset {
                runs[runs.count - 1].end = raw.offset + raw.size
            } else {
                runs.append(Run(thread: raw.thread, start: raw.offset, end: raw.offset + raw.size))
            }
        }
        let logStrings = LogStrings(strings)
        var malformed: [String] = []
        let step = max(end / 100, 1)
        var read = 0
        var nextReport = step
        let size = Double(end)
        let shrunk = merge(runs) { raw, bytes in
            read += raw.size
            if read >= nextReport {
                progress(Double(read) / size)
                nextReport = read + step
            }
            guard let record = raw.record, !raw.isString else { return }
            guard let event = record.decode(Self.payload(of: bytes), strings: logStrings) else {
                malformed.append("\(path): record at byte offset \(raw.offset) is malformed and was skipped")
                return
            }
            visit(TraceRecord(sequence: raw.sequence, timestamp: raw.timestamp, thread: raw.thread, event: event, cause: raw.cause))
        }
        warnings = malformed + (tail.map { [$0] } ?? [])
        if stringsCut || logStrings.wereCut {
            warnings.append(
                "\(path): names or values longer than \(EventLogFormat.stringReadLimit) characters were cut, ending in …")
        }
        if let shrunk {
            warnings.append("\(path): the file shrank while it was read (from \(end) bytes to \(shrunk)); the records past that were not read")
        }
    }

    /// A stretch of the file holding records of one thread only.
    private struct Run {
        let thread: UInt32
        let start: Int
        var end: Int
    }

    /// One thread's next record, in the merge: its sequence number and the thread's index
    /// among the log's threads.
    private struct Cursor: Comparable {
        let sequence: UInt64
        let thread: Int
        static func < (lhs: Cursor, rhs: Cursor) -> Bool { (lhs.sequence, lhs.thread) < (rhs.sequence, rhs.thread) }
    }

    /// Visits the records of `runs` by sequence number: each thread's runs in file order,
    /// the threads merged. A thread's records are visited in a stretch for as long as they
    /// come before every other thread's next one, so the merge costs something per switch
    /// between threads, not per record (one thread's log costs nothing). Returns the
    /// file's new size if it shrank under a run.
    private func merge(_ runs: [Run], _ visit: (Raw, UnsafeRawBufferPointer) -> Void) -> Int? {
        var indices: [UInt32: Int] = [:]
        var lanes: [Lane] = []
        for run in runs {
            if let index = indices[run.thread] {
                lanes[index].runs.append(run)
            } else {
                indices[run.thread] = lanes.count
                lanes.append(Lane(first: run))
            }
        }
        var pending: [Raw?] = lanes.indices.map { lanes[$0].next(in: self) }
        var heap = Heap(pending.indices.compactMap { thread in pending[thread].map { Cursor(sequence: $0.sequence, thread: thread) } })
        while let cursor = heap.popMin() {
            let thread = cursor.thread
            var raw = pending[thread]!
            while true {
                lanes[thread].window.withBytes(raw.range) { visit(raw, $0) }
                guard let following = lanes[thread].next(in: self) else { break }
                let resumed = Cursor(sequence: following.sequence, thread: thread)
                if let other = heap.min, other < resumed {
                    pending[thread] = following
                    heap.insert(resumed)
                    break
                }
                raw = following
            }
        }
        return lanes.contains(where: \.shrunk) ? Self.currentSize(of: source) : nil
    }

    private static func currentSize(of source: LogSource) -> Int {
        guard case .file(let descriptor, _) = source else { return source.count }
        var status = stat()
        return fstat(descriptor, &status) == 0 ? Int(status.st_size) : 0
    }

    /// One thread's runs, where its next record is, and a window on the file around it.
    private struct Lane {
        var runs: [Run]
        var run = 0
        var offset: Int
        var window = LogWindow(chunk: 64 << 10)
        /// Whether the file ended before a record the first pass read whole.
        var shrunk = false

        init(first: Run) {
            runs = [first]
            offset = first.start
        }

        /// The thread's next record of a known kind, if any; its bytes are in `window`.
        mutating func next(in reader: EventLogReader) -> Raw? {
            while run < runs.count {
                while offset < runs[run].end {
                    // The first pass checked the prefix; the file may have shrunk since.
                    let end = runs[run].end
                    guard window.load(offset..<(offset + EventLogFormat.prefixSize), from: reader.source, limit: end) else {
                        shrunk = true
                        return nil
                    }
                    let raw = window.withBytes(offset..<(offset + EventLogFormat.prefixSize)) { Raw(at: offset, prefix: $0) }
                    guard raw.size >= EventLogFormat.prefixSize, window.load(raw.range, from: reader.source, limit: end) else {
                        shrunk = true
                        return nil
                    }
                    offset += raw.size
                    if raw.record != nil { return raw }
                }
                run += 1
                if run < runs.count { offset = runs[run].start }
            }
            return nil
        }
    }

    /// Walks the records with their bytes; returns a warning if it stopped at a truncated
    /// or corrupt tail, and where the records it read end.
    private func scan(_ visit: (Raw, UnsafeRawBufferPointer) -> Void) -> (warning: String?, end: Int) {
        var window = LogWindow(chunk: 1 << 20)
        var offset = EventLogFormat.headerSize
        let count = source.count
        while offset < count {
            let remaining = count - offset
            let prefix = offset..<(offset + EventLogFormat.prefixSize)
            guard remaining >= EventLogFormat.prefixSize, window.load(prefix, from: source, limit: count) else {
                return ("\(path): truncated record at byte offset \(offset) (\(remaining) bytes); reading stopped there", offset)
            }
            let raw = window.withBytes(prefix) { Raw(at: offset, prefix: $0) }
            let size = raw.size
            guard EventLogFormat.isPlausibleRecordSize(size) else {
                return ("\(path): corrupt record at byte offset \(offset) (size \(size)); the last \(remaining) bytes were skipped", offset)
            }
            guard size <= remaining, window.load(raw.range, from: source, limit: count) else {
                return ("\(path): truncated record at byte offset \(offset) (\(remaining) of \(size) bytes); reading stopped there", offset)
            }
            window.withBytes(raw.range) { visit(raw, $0) }
            offset += size
        }
        return (nil, offset)
    }

    /// A record's payload: its bytes after the prefix (padding included).
    private static func payload(of record: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: record[EventLogFormat.prefixSize...])
    }
}
