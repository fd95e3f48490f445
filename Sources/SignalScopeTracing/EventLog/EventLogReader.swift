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
    /// Whether records were skipped while reading went on past them (a malformed record, the
    /// rest of a damaged batch, records the file no longer held): what they said is missing
    /// although the log may end cleanly.
    private var skippedRecords = false

    /// Visits every record of `source` in sequence order, and returns the warnings and the
    /// log's minor format version; `path` names the log in messages. `progress` hears the
    /// fraction of the bytes decoded, at most once per percent.
    static func visit(
        _ source: LogSource, path: String, progress: (Double) -> Void = { _ in },
        _ visit: (TraceRecord) -> Void
    ) throws(TraceReadError) -> (warnings: [String], skippedRecords: Bool) {
        var reader = EventLogReader(source: source, path: path)
        try reader.read(progress: progress, visit)
        return (reader.warnings, reader.skippedRecords)
    }

    private init(source: LogSource, path: String) {
        self.source = source
        self.path = path
    }

    /// A record's prefix, and where it is.
    private struct Raw {
        let offset: Int
        let size: Int
        let stored: StoredRecord

        /// `nil` for padding, and for kinds this reader does not know (a newer minor
        /// version's), which it skips.
        var record: (any EventRecord.Type)? { stored.type }
        var sequence: UInt64 { stored.prefix.sequence }

        /// The record's bytes in the log.
        var range: Range<Int> { offset..<(offset + size) }

        /// The record of `stored`'s size at `offset`.
        init(at offset: Int, _ stored: StoredRecord) {
            self.offset = offset
            size = stored.compact == nil ? Int(stored.prefix.size) : EventLogFormat.compactSize
            self.stored = stored
        }
    }

    private mutating func read(progress: (Double) -> Void, _ visit: (TraceRecord) -> Void) throws(TraceReadError) {
        var header = LogWindow(chunk: EventLogFormat.headerSize)
        guard header.load(0..<EventLogFormat.headerSize, from: source, limit: EventLogFormat.headerSize),
            Array(header.bytes(0..<8)) == EventLogFormat.magic
        else {
            throw .notAnEventLog(path: path)
        }
        let version = header.bytes(8..<12)
        let (major, minor) = (version.u16(0), version.u16(2))
        guard EventLogFormat.readableMajorVersions.contains(major) else {
            throw .unsupportedVersion(path: path, major: major, minor: minor)
        }
        let logStrings = LogStrings()
        var stringsCut = false
        let (runs, problems, end, skippedInBatches) = scan { raw, bytes in
            if let string = raw.stored.string(bytes) {
                let capped = EventLogFormat.capped(string.text, limit: EventLogFormat.stackReadLimit)
                if capped.wasCut { stringsCut = true }
                logStrings.define(string.id, as: capped.text)
            } else if let site = raw.stored.codeSite(bytes) {
                logStrings.define(site)
            }
        }
        var malformed: [String] = []
        // A log from before the creation-block flag (format 3.2) cannot show a cold signal's
        // own work: the one rule that needs it says nothing, and the reader says why.
        let predatesCreationBlockFlag = (major, minor) < (3, 2)
        var hasColdSignal = false
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
            guard raw.record != nil, !raw.stored.isReadFirst else { return }
            guard let record = raw.stored.record(bytes, strings: logStrings) else {
                malformed.append("\(path): record at byte offset \(raw.offset) is malformed and was skipped")
                return
            }
            if predatesCreationBlockFlag, !hasColdSignal, case .node(_, _, _, _, _, let traits) = record.event, traits.contains(.cold) {
                hasColdSignal = true
            }
            visit(record)
        }
        warnings = malformed + problems
        if hasColdSignal {
            warnings.append(
                "\(path): recorded in event log format \(major).\(minor), before 3.2 marked what a cold signal's own work sends: "
                    + "repeated-cold-subscription cannot tell it from events sent from outside, and says nothing of this trace (record it again)")
        }
        skippedRecords = skippedInBatches || !malformed.isEmpty || shrunk != nil
        if stringsCut || logStrings.wereCut {
            warnings.append(
                "\(path): names or values longer than \(EventLogFormat.stringReadLimit) characters were cut, ending in …")
        }
        if let shrunk {
            warnings.append("\(path): the file shrank while it was read (from \(end) bytes to \(shrunk)); the records past that were not read")
        }
    }

    /// A stretch of the file holding records of one thread only: full records outside any
    /// batch, or batches one after another, from the first's prefix to where the last's
    /// readable records end. Consecutive stretches of a thread are one run, so that memory
    /// grows with the switches between threads in the file, not with the batches.
    private struct Run {
        let thread: UInt32
        let start: Int
        var end: Int
        let holdsBatches: Bool
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
        // Through a buffer pointer: an array's element mutated in place checks the array's
        // uniqueness on every record.
        lanes.withUnsafeMutableBufferPointer { lanes in
            while let cursor = heap.popMin() {
                let thread = cursor.thread
                var raw = pending[thread]!
                while true {
                    visit(raw, lanes[thread].window.bytes(raw.range))
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
        let thread: UInt32
        var runs: [Run]
        var run = 0
        var offset: Int
        /// In a run of batches: where the batch being read ends (at or before `offset`: its
        /// prefix comes next), and where its thread had got to, which its compact records
        /// follow.
        var batchEnd = 0
        var position = ThreadPosition()
        var window = LogWindow(chunk: 64 << 10)
        /// Where the records ``next(in:)`` may read without its checks end: in a batch, after a
        /// record the checks read, the first of the batch's end, the run's and the window's
        /// (at or before `offset` otherwise).
        var checkedEnd = 0
        /// Whether the file ended before a record the first pass read whole.
        var shrunk = false

        init(first: Run) {
            thread = first.thread
            runs = [first]
            offset = first.start
        }

        /// The thread's next record of a known kind, if any; its bytes are in `window`.
        ///
        /// Most of a log is records in the middle of a batch the window already holds: those
        /// are read here, without going through the runs, the batch and the window again
        /// (which cost about 150 instructions a record), the compact ones inline.
        @inline(__always) mutating func next(in reader: EventLogReader) -> Raw? {
            if offset &+ EventLogFormat.compactSize <= checkedEnd {
                let bytes = window.address(of: offset)
                let stored =
                    bytes.load(as: UInt8.self) == EventLogFormat.compactForm
                    ? StoredRecord(CompactRecord(loadingFrom: bytes), thread: thread, after: position) : whole(at: bytes)
                if let stored, stored.type != nil {
                    position = ThreadPosition(sequence: stored.prefix.sequence, timestamp: stored.prefix.timestamp)
                    defer { offset &+= Int(stored.prefix.size) }
                    return Raw(at: offset, stored)
                }
            }
            return nextChecked(in: reader)
        }

        /// The batch's full record at `bytes` (at `offset`, at least 16 bytes before
        /// `checkedEnd`), if it ends before `checkedEnd`; `nil` leaves it to the checks.
        private func whole(at bytes: UnsafeRawPointer) -> StoredRecord? {
            let size = Int(UInt32(littleEndian: bytes.loadUnaligned(as: UInt32.self)))
            guard size >= EventLogFormat.prefixSize, size <= checkedEnd &- offset else { return nil }
            return StoredRecord(full: UnsafeRawBufferPointer(start: bytes, count: size))
        }

        /// ``next(in:)``, through the runs, the batches and the window, checking each.
        private mutating func nextChecked(in reader: EventLogReader) -> Raw? {
            checkedEnd = 0
            while run < runs.count {
                let current = runs[run]
                while offset < current.end {
                    // The first pass checked every record; the file may have changed since.
                    if current.holdsBatches, offset >= batchEnd {
                        guard let batch = prefix(in: reader, before: current.end) else { return nil }
                        position = ThreadPosition(sequence: batch.sequence, timestamp: batch.timestamp)
                        batchEnd = offset + Int(batch.size)
                        offset += EventLogFormat.prefixSize
                        continue
                    }
                    let end = current.holdsBatches ? min(batchEnd, current.end) : current.end
                    let head = offset..<min(offset + EventLogFormat.prefixSize, end)
                    guard window.load(head, from: reader.source, limit: end),
                        let size = Self.size(of: window.bytes(head), inBatch: current.holdsBatches),
                        size >= EventLogFormat.compactSize, offset + size <= end,
                        window.load(offset..<(offset + size), from: reader.source, limit: current.end)
                    else {
                        shrunk = true
                        return nil
                    }
                    let bytes = window.bytes(offset..<(offset + size))
                    let raw = Raw(
                        at: offset,
                        current.holdsBatches
                            ? StoredRecord(nested: bytes, thread: current.thread, position: &position) : StoredRecord(full: bytes))
                    offset += raw.size
                    if current.holdsBatches { checkedEnd = min(end, window.end) }
                    if raw.record != nil { return raw }
                }
                run += 1
                if run < runs.count {
                    offset = runs[run].start
                    batchEnd = 0
                }
            }
            return nil
        }

        /// The prefix of the batch at `offset`, which ends before `end`; `nil` (and
        /// `shrunk`) when the file no longer holds a plausible one.
        private mutating func prefix(in reader: EventLogReader, before end: Int) -> RecordPrefix? {
            let range = offset..<(offset + EventLogFormat.prefixSize)
            guard range.upperBound <= end, window.load(range, from: reader.source, limit: end) else {
                shrunk = true
                return nil
            }
            let prefix = StoredRecord(full: window.bytes(range)).prefix
            guard prefix.kind == EventLogFormat.batchKind, EventLogFormat.isPlausibleRecordSize(Int(prefix.size)) else {
                shrunk = true
                return nil
            }
            return prefix
        }

        /// The size of the record whose first bytes are `head`.
        private static func size(of head: UnsafeRawBufferPointer, inBatch: Bool) -> Int? {
            inBatch ? EventLogFormat.nestedRecordSize(head)?.size : head.count >= 4 ? Int(head.u32(0)) : nil
        }
    }

    /// Walks the records and visits the whole ones with their bytes (a batch's one by one:
    /// its compact records are checked and skipped); returns the runs of each thread's
    /// records, warnings where it stopped at a truncated or corrupt record or skipped the
    /// rest of a batch, where the records it read end, and whether it skipped any batch's
    /// rest.
    private func scan(_ visit: (Raw, UnsafeRawBufferPointer) -> Void) -> (runs: [Run], warnings: [String], end: Int, skippedInBatches: Bool) {
        var window = LogWindow(chunk: 1 << 20)
        var offset = EventLogFormat.headerSize
        var runs: [Run] = []
        var warnings: [String] = []
        let count = source.count
        func truncated(at offset: Int, size: Int?) -> String {
            "\(path): truncated record at byte offset \(offset) (\(size.map { "\(count - offset) of \($0)" } ?? "\(count - offset)") bytes); reading stopped there"
        }
        while offset < count {
            let remaining = count - offset
            let prefix = offset..<(offset + EventLogFormat.prefixSize)
            guard remaining >= EventLogFormat.prefixSize, window.load(prefix, from: source, limit: count) else {
                return (runs, warnings + [truncated(at: offset, size: nil)], offset, !warnings.isEmpty)
            }
            let raw = Raw(at: offset, StoredRecord(full: window.bytes(prefix)))
            let size = raw.size
            guard EventLogFormat.isPlausibleRecordSize(size) else {
                let warning = "\(path): corrupt record at byte offset \(offset) (size \(size)); the last \(remaining) bytes were skipped"
                return (runs, warnings + [warning], offset, !warnings.isEmpty)
            }
            guard raw.stored.prefix.kind == EventLogFormat.batchKind else {
                guard size <= remaining, window.load(raw.range, from: source, limit: count) else {
                    return (runs, warnings + [truncated(at: offset, size: size)], offset, !warnings.isEmpty)
                }
                visit(raw, window.bytes(raw.range))
                extend(&runs, thread: raw.stored.prefix.thread, from: offset, to: offset + size, holdsBatches: false)
                offset += size
                continue
            }
            // A batch: its records one by one, so that a log cut inside one keeps those before
            // the cut, and a damaged one loses the rest of its batch only.
            let batch = raw.stored.prefix
            let batchEnd = offset + size
            var nested = offset + EventLogFormat.prefixSize
            var stop: String?
            while nested < batchEnd {
                guard nested < count else {
                    stop = truncated(at: offset, size: size)
                    break
                }
                let head = nested..<min(nested + EventLogFormat.prefixSize, batchEnd, count)
                guard window.load(head, from: source, limit: count), let found = EventLogFormat.nestedRecordSize(window.bytes(head)) else {
                    stop = truncated(at: nested, size: nil)
                    break
                }
                let (recordSize, isCompact) = found
                guard isCompact || EventLogFormat.isPlausibleRecordSize(recordSize), nested + recordSize <= batchEnd else {
                    warnings.append("\(path): corrupt record at byte offset \(nested) (size \(recordSize)); the rest of its batch was skipped")
                    break
                }
                let range = nested..<(nested + recordSize)
                guard window.load(range, from: source, limit: count) else {
                    stop = truncated(at: nested, size: recordSize)
                    break
                }
                // A compact record holds no string, and where its thread had got to matters
                // only to the second pass; nor do the other records (most of a batch's full
                // ones), whose prefixes are not decoded here.
                if !isCompact, StoredRecord.isReadFirst(kind: window.bytes(range)[EventLogFormat.kindOffset]) {
                    let bytes = window.bytes(range)
                    visit(Raw(at: nested, StoredRecord(full: bytes)), bytes)
                }
                nested += recordSize
            }
            extend(&runs, thread: batch.thread, from: offset, to: nested, holdsBatches: true)
            if stop == nil, batchEnd > count { stop = truncated(at: offset, size: size) }
            if let stop { return (runs, warnings + [stop], nested, !warnings.isEmpty) }
            offset = batchEnd
        }
        return (runs, warnings, offset, !warnings.isEmpty)
    }

    /// Adds the stretch `start..<end` of `thread`'s records to `runs`, as part of the last run
    /// when that one is the same thread's, of the same form, and ends where it starts.
    private func extend(_ runs: inout [Run], thread: UInt32, from start: Int, to end: Int, holdsBatches: Bool) {
        if let last = runs.last, last.thread == thread, last.holdsBatches == holdsBatches, last.end == start {
            runs[runs.count - 1].end = end
        } else {
            runs.append(Run(thread: thread, start: start, end: end, holdsBatches: holdsBatches))
        }
    }
}
