import Glibc

/// Reads an event log while the program writing it runs: each ``poll(maximumBytes:)`` decodes
/// the records appended since the last one whose bytes are complete, and ``batches(maximumBytes:idle:isFinished:)``
/// is the same as an asynchronous sequence. For a live view: the
/// records of one poll come sorted by sequence number, but a thread's buffer written later
/// may hold records older than an earlier poll's, and a name whose string record is still
/// in another thread's buffer reads as `?`. Read the whole log with `Trace` once it ends.
public final class LiveLogReader {
    private let path: String
    private var descriptor: Int32 = -1
    private var offset = EventLogFormat.headerSize
    /// The strings and the sites known by their code (those written at the end of the
    /// recording), as they are read.
    private let strings = LogStrings()
    /// Why reading stopped for good (a file that is not an event log, a corrupt record).
    public private(set) var problem: String?
    /// Whether the last ``poll(maximumBytes:)`` left bytes of the log unread (it read its
    /// step's worth): poll again at once to catch up.
    public private(set) var hasMore = false

    /// A reader of the log at `path`, which need not exist yet.
    public init(path: String) {
        self.path = path
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// The log's records as the program writes them, one ``poll(maximumBytes:)`` a batch: an
    /// empty batch when a poll found nothing new, after which the next poll waits `idle` (a
    /// reader behind its program reads on at once). It ends once `isFinished` has said that
    /// nothing more will be written and the log is read to its end, once reading has stopped
    /// (``problem``), or when the task reading it is cancelled.
    public func batches(
        maximumBytes: Int = 4 << 20, idle: Duration = .milliseconds(100), isFinished: @escaping @Sendable () -> Bool
    ) -> Batches {
        Batches(reader: self, maximumBytes: maximumBytes, idle: idle, isFinished: isFinished)
    }

    /// ``batches(maximumBytes:idle:isFinished:)``.
    public struct Batches: AsyncSequence {
        public typealias Element = [TraceRecord]
        fileprivate let reader: LiveLogReader
        fileprivate let maximumBytes: Int
        fileprivate let idle: Duration
        fileprivate let isFinished: @Sendable () -> Bool

        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(batches: self)
        }

        public struct AsyncIterator: AsyncIteratorProtocol {
            fileprivate let batches: Batches
            fileprivate var waits = false
            fileprivate var ended = false

            public mutating func next() async -> [TraceRecord]? {
                guard !ended, !Task.isCancelled else { return nil }
                if waits {
                    try? await Task.sleep(for: batches.idle)
                    guard !Task.isCancelled else { return nil }
                }
                // Asked before the poll: whatever was written before the program ended is
                // in the file by then, so this poll reads on to it.
                let finished = batches.isFinished()
                let records = batches.reader.poll(maximumBytes: batches.maximumBytes)
                waits = !batches.reader.hasMore
                ended = waits && (finished || batches.reader.problem != nil)
                return ended && records.isEmpty ? nil : records
            }
        }
    }

    /// The complete records appended since the last poll, by sequence number, from at most
    /// about `maximumBytes` of the log (at least one whole record), so that a reader that
    /// falls behind a fast writer catches up in steps of bounded memory; none when the file
    /// does not exist yet or reading has stopped (``problem``).
    public func poll(maximumBytes: Int = 4 << 20) -> [TraceRecord] {
        hasMore = false
        guard problem == nil, openIfNeeded() else { return [] }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return [] }
        let size = Int(status.st_size)
        guard size > offset else { return [] }
        let before = offset
        var records = poll(bytes: min(size - offset, max(maximumBytes, EventLogFormat.prefixSize)))
        // A record larger than the step (a thread's batch) is read whole.
        if offset == before, problem == nil, size - offset > maximumBytes { records = poll(bytes: size - offset) }
        hasMore = problem == nil && offset > before && size - offset >= EventLogFormat.prefixSize
        return records
    }

    private func poll(bytes count: Int) -> [TraceRecord] {
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { buffer in pread(descriptor, buffer.baseAddress, buffer.count, off_t(offset)) }
        guard read > 0 else { return [] }
        var decoded: [(stored: StoredRecord, bytes: Range<Int>)] = []
        let (position, corrupt) = bytes.withUnsafeBytes { buffer in
            RecordsInMemory.walk(UnsafeRawBufferPointer(rebasing: buffer[..<read])) { stored, range, _ in
                if let string = stored.string(UnsafeRawBufferPointer(rebasing: buffer[range])) {
                    strings.define(string.id, as: EventLogFormat.capped(string.text, limit: EventLogFormat.stackReadLimit).text)
                } else if let site = stored.codeSite(UnsafeRawBufferPointer(rebasing: buffer[range])) {
                    strings.define(site)
                } else if stored.type != nil {
                    decoded.append((stored, range))
                }
            }
        }
        if corrupt { problem = "\(path): corrupt record at byte offset \(offset + position); live reading stopped there" }
        offset += position
        return bytes.withUnsafeBytes { buffer in
            decoded.compactMap { stored, range in stored.record(UnsafeRawBufferPointer(rebasing: buffer[range]), strings: strings) }
        }.sorted { $0.sequence < $1.sequence }
    }

    private func openIfNeeded() -> Bool {
        if descriptor >= 0 { return true }
        let opened = open(path, O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else { return false }
        var header = [UInt8](repeating: 0, count: EventLogFormat.headerSize)
        guard pread(opened, &header, header.count, 0) == header.count else {
            close(opened)
            return false
        }
        let major = UInt16(header[8]) | UInt16(header[9]) << 8
        guard Array(header[0..<8]) == EventLogFormat.magic, EventLogFormat.readableMajorVersions.contains(major) else {
            close(opened)
            problem = "\(path) is not a SignalScope event log of format \(EventLogFormat.readableVersionsDescription)"
            return false
        }
        descriptor = opened
        return true
    }
}
