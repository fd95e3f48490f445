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
        let kind: RecordKind?
        let thread: UInt32
        let sequence: UInt64
        let timestamp: UInt64
        let cause: TraceCause?

        /// The record's bytes in the log.
        var range: Range<Int> { offset..<(offset + size) }

        /// The prefix of the record whose bytes (`size` of them at least) start `bytes`.
        init(at offset: Int, prefix bytes: UnsafeRawBufferPointer) {
            self.offset = offset
            size = Int(bytes.u32(0))
            let kind = RecordKind(rawValue: bytes[4])
            self.kind = kind == .padding ? nil : kind
            thread = bytes.u32(8)
            let sequence = bytes.u64(16)
            self.sequence = sequence
            timestamp = bytes.u64(24)
            let distance = UInt64(bytes.u32(12))
            if let kind = TraceCause.Kind(rawValue: bytes[5]), distance > 0, distance <= sequence {
                cause = TraceCause(sequence: sequence - distance, kind: kind)
            } else {
                cause = nil
            }
        }
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
            if raw.kind == .string, let (id, text) = Self.decodeString(bytes) {
                let capped = EventLogFormat.capped(text, limit: EventLogFormat.stackReadLimit)
                if capped.wasCut { stringsCut = true }
                strings[id] = capped.text
            }
            if let last = runs.last, last.thread == raw.thread, last.end == raw.offset {
                runs[runs.count - 1].end = raw.offset + raw.size
            } else {
                runs.append(Run(thread: raw.thread, start: raw.offset, end: raw.offset + raw.size))
            }
        }
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
            guard raw.kind != .string else { return }
            guard let event = decode(raw, bytes, strings: strings, cut: &stringsCut) else {
                malformed.append("\(path): record at byte offset \(raw.offset) is malformed and was skipped")
                return
            }
            visit(TraceRecord(sequence: raw.sequence, timestamp: raw.timestamp, thread: raw.thread, event: event, cause: raw.cause))
        }
        warnings = malformed + (tail.map { [$0] } ?? [])
        if stringsCut {
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
                    if raw.kind != nil { return raw }
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
            guard size >= EventLogFormat.prefixSize, size % 8 == 0, size <= EventLogFormat.maximumRecordSize else {
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

    /// A string record's id and text, from the record's bytes.
    private static func decodeString(_ bytes: UnsafeRawBufferPointer) -> (UInt32, String)? {
        let start = EventLogFormat.prefixSize
        guard bytes.count - start >= 8 else { return nil }
        let count = Int(bytes.u32(start + 4))
        guard count <= bytes.count - start - 8 else { return nil }
        return (bytes.u32(start), String(decoding: bytes[(start + 8)..<(start + 8 + count)], as: UTF8.self))
    }

    /// The event a record holds, from the record's bytes; `nil` if it is malformed.
    private func decode(_ raw: Raw, _ bytes: UnsafeRawBufferPointer, strings: [UInt32: String], cut: inout Bool) -> TraceEvent? {
        guard let kind = raw.kind else { return nil }
        let p = EventLogFormat.prefixSize
        let available = bytes.count - p
        func capped(_ text: String) -> String {
            let capped = EventLogFormat.capped(text, limit: EventLogFormat.stringReadLimit)
            if capped.wasCut { cut = true }
            return capped.text
        }
        func lookUp(_ id: UInt32) -> String { strings[id].map(capped) ?? "?" }
        func string(_ at: Int) -> String { lookUp(bytes.u32(at)) }
        func site(file: Int, function: Int, line: Int) -> TraceSite {
            TraceSite(file: string(file), line: Int(bytes.u32(line)), function: string(function))
        }
        func text(_ at: Int) -> String? {
            let count = bytes.u32(at)
            if count == EventLogFormat.noSummary { return nil }
            guard Int(count) <= available - (at + 4 - p) else { return nil }
            return capped(String(decoding: bytes[(at + 4)..<(at + 4 + Int(count))], as: UTF8.self))
        }
        let subscription = SubscriptionID(rawValue: available >= 8 ? bytes.u64(p) : 0)
        let payload = PayloadReader(bytes: bytes, start: p, count: available)
        switch kind {
        case .node:
            guard available >= 32, let kind = NodeKind(code: bytes[p + 8]) else { return nil }
            let count = Int(bytes.u32(p + 28))
            guard available >= 32 + 16 * count else { return nil }
            var parents: [NodeEdge] = []
            for index in 0..<count {
                guard let edge = EdgeKind(code: bytes[p + 40 + 16 * index]) else { return nil }
                parents.append(NodeEdge(parent: NodeID(rawValue: bytes.u64(p + 32 + 16 * index)), kind: edge))
            }
            return .node(
                NodeID(rawValue: bytes.u64(p)), kind: kind, name: string(p + 12),
                site: site(file: p + 16, function: p + 20, line: p + 24), parents: parents,
                traits: NodeTraits(rawValue: bytes[p + 9]))
        case .nodeNamed:
            guard available >= 12 else { return nil }
            return .nodeNamed(NodeID(rawValue: bytes.u64(p)), name: string(p + 8))
        case .edge:
            guard available >= 17, let kind = EdgeKind(code: bytes[p + 16]) else { return nil }
            return .edge(NodeEdge(parent: NodeID(rawValue: bytes.u64(p + 8)), kind: kind), to: NodeID(rawValue: bytes.u64(p)))
        case .subscribe:
            guard available >= 44 else { return nil }
            let parent = bytes.u64(p + 16)
            let target = bytes.u64(p + 36)
            return .subscribe(
                subscription, node: NodeID(rawValue: bytes.u64(p + 8)),
                parent: parent == 0 ? nil : SubscriptionID(rawValue: parent),
                site: site(file: p + 24, function: p + 28, line: p + 32),
                bindingTarget: target == 0 ? nil : NodeID(rawValue: target))
        case .observerStored:
            guard available >= 9 else { return nil }
            return .observerStored(subscription, handlers: ObserverHandlers(rawValue: bytes[p + 8]))
        case .observerReleased:
            guard available >= 8 else { return nil }
            return .observerReleased(subscription)
        case .next:
            guard available >= 12 else { return nil }
            if bytes.u32(p + 8) == EventLogFormat.noSummary { return .next(subscription, value: nil) }
            guard let value = text(p + 8) else { return nil }
            return .next(subscription, value: value)
        case .error:
            guard available >= 12, let description = text(p + 8) else { return nil }
            return .error(subscription, description: description)
        case .completed:
            guard available >= 8 else { return nil }
            return .completed(subscription)
        case .disposed:
            guard available >= 9, let cause = DisposalCause(rawValue: bytes[p + 8]) else { return nil }
            return .disposed(subscription, cause: cause)
        case .violation:
            guard available >= 36, let event = DroppedEvent.Kind(code: bytes[p + 16]) else { return nil }
            let target = bytes.u64(p + 8)
            // A line of 0 means no user frame.
            let sent = bytes.u32(p + 32) != 0 ? site(file: p + 24, function: p + 28, line: p + 32) : nil
            return .violation(
                node: NodeID(rawValue: bytes.u64(p)), subscription: target == 0 ? nil : SubscriptionID(rawValue: target),
                event: event, site: sent, stack: strings[bytes.u32(p + 20)] ?? "?")
        case .end:
            guard available >= 8 else { return nil }
            return .end(recordCount: bytes.u64(p))
        case .snapshot:
            guard let record = SnapshotRecord(payload) else { return nil }
            return .snapshot(
                limits: record.limits, objectLimitReached: record.objectLimitReached,
                depthLimitReached: record.depthLimitReached, memoryUnreadable: record.memoryUnreadable,
                coversAllocations: record.usedAllocationTable,
                unwalkedReason: record.unwalkedReason == 0 ? nil : lookUp(record.unwalkedReason))
        case .heapObject:
            return HeapObjectRecord(payload)?.decoded(strings: lookUp).map(TraceEvent.heapObject)
        case .reference:
            return ReferenceRecord(payload)?.decoded(strings: lookUp).map(TraceEvent.reference)
        case .alive:
            guard available >= 24 else { return nil }
            let id = bytes.u64(p + 8)
            let entity: TraceEntity
            switch bytes[p] {
            case 0: entity = .node(NodeID(rawValue: id))
            case 1: entity = .subscription(SubscriptionID(rawValue: id))
            case 2: entity = .object(ObjectID(rawValue: id))
            default: return nil
            }
            return .alive(entity, retainCount: payload.int(16), terminated: bytes[p + 1] & 1 != 0)
        case .virtualTime:
            guard available >= 8 else { return nil }
            return .virtualTime(nanoseconds: Int64(bitPattern: bytes.u64(p)))
        case .typeSite:
            guard available >= 16 else { return nil }
            return .typeSite(typeName: string(p), site: site(file: p + 4, function: p + 8, line: p + 12))
        case .string, .padding:
            return nil
        }
    }}
