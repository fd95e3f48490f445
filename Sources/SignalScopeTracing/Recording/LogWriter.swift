import CTracingSupport
import Glibc
import Foundation
import Synchronization
@_spi(Locking) import SignalScope

/// Where a recording's bytes end up.
protocol LogSink: AnyObject, Sendable {
    /// Appends bytes; called by one thread at a time (the writer holds its lock).
    func write(_ bytes: UnsafeRawBufferPointer) throws
    /// Makes what was written durable, and releases the destination.
    func close() throws
}

/// Drains every thread's buffer into a sink on a background thread, at least every
/// `interval`, and on demand.
final class LogWriter: @unchecked Sendable {
    private let sink: any LogSink
    private let interval: Duration
    /// Guards the sink and the buffer list; the hot path never takes it.
    private let lock = LockedValue<State>(State())
    private let wakeUp = DispatchSemaphore(value: 0)
    private let stopped = DispatchSemaphore(value: 0)
    private let running = Atomic<Bool>(true)

    private struct State {
        var buffers: [ThreadBuffer] = []
        var failure: (any Error)?
        /// Drained records waiting to be written in one call: one `write(2)` per record
        /// would make the writer, not the program, the bottleneck.
        var staging: [UInt8] = []
    }

    private static let stagingLimit = 1 << 20

    init(sink: any LogSink, interval: Duration = .milliseconds(100)) throws {
        self.sink = sink
        self.interval = interval
        try EventLogFormat.header().withUnsafeBytes { try sink.write($0) }
        let thread = Thread { [self] in run() }
        thread.name = "SignalScope.LogWriter"
        thread.start()
    }

    /// Adds a thread's buffer to those drained.
    func register(_ buffer: ThreadBuffer) {
        lock.withLock { $0.buffers.append(buffer) }
    }

    /// Asks for a drain now (a buffer is full).
    func requestDrain() {
        wakeUp.signal()
    }

    /// Writes a record too large for a thread buffer, after draining what came before it:
    /// outside any batch, with its whole prefix.
    func writeDirectly(_ record: UnsafeRawBufferPointer) {
        lock.withLock { state in
            drainAll(&state)
            attempt(&state) { try sink.write(record) }
        }
    }


    /// Drains everything, stops the thread, closes the sink; throws the first write error.
    func finish() throws {
        running.store(false, ordering: .releasing)
        wakeUp.signal()
        stopped.wait()
        try lock.withLock { state in
            drainAll(&state)
            // Subscriptions that outlive the recording keep its recorder, and with it this
            // writer: the threads' buffers go now (each thread drops its own when it next
            // records or exits).
            state.buffers = []
            state.staging = []
            attempt(&state) { try sink.close() }
            if let failure = state.failure { throw failure }
        }
    }

    private func run() {
        let timeout = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
        while running.load(ordering: .acquiring) {
            _ = wakeUp.wait(timeout: .now() + timeout)
            lock.withLock { drainAll(&$0) }
            // The allocation table's merging, off the program's threads.
            signalscope_allocations_merge()
        }
        stopped.signal()
    }

    private func drainAll(_ state: inout State) {
        for buffer in state.buffers {
            var batch = BatchFraming(thread: buffer.threadID, position: buffer.drainedPosition)
            buffer.drain { record in
                batch.append(record, to: &state.staging)
                if state.staging.count >= Self.stagingLimit {
                    batch.close(&state.staging)
                    flush(&state)
                }
            }
            batch.close(&state.staging)
            buffer.drainedPosition = batch.position
        }
        flush(&state)
        state.buffers.removeAll { $0.isRetired.load(ordering: .acquiring) && $0.isEmpty }
    }

    private func flush(_ state: inout State) {
        guard !state.staging.isEmpty else { return }
        let staged = state.staging
        attempt(&state) { try staged.withUnsafeBytes { try sink.write($0) } }
        state.staging.removeAll(keepingCapacity: true)
    }

    /// Keeps the first failure and stops writing after it; the recording goes on so the
    /// program being traced is never blocked by a full disk.
    private func attempt(_ state: inout State, _ write: () throws -> Void) {
        guard state.failure == nil else { return }
        do { try write() } catch { state.failure = error }
    }
}

/// Writes to a file, with plain `write(2)` so that a killed process leaves every byte the
/// writer handed over.
final class FileSink: LogSink, @unchecked Sendable {
    private let descriptor: Int32
    let path: String

    /// Opens `path` for a new log, readable by its owner only (a trace may hold values and
    /// error messages).
    ///
    /// It never follows a symbolic link and never truncates a file that is not already an
    /// event log of this user's: the path often lies in a shared folder such as `/tmp`,
    /// where someone else could have planted a link to a file worth destroying, and a
    /// mistyped `-o` must not wipe a source file. An empty file, or a trace of the same
    /// user with no other hard link, is replaced.
    init(path: String) throws {
        self.path = path
        // Read and write: an existing file is read to see whether it is a trace.
        descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let reason = errno == ELOOP ? "it is a symbolic link, which a trace never follows" : String(cString: strerror(errno))
            throw RecordingError.cannotCreate(path: path, reason: reason)
        }
        if let refusal = Self.refusalToReplace(descriptor) {
            Glibc.close(descriptor)
            throw RecordingError.cannotCreate(path: path, reason: refusal)
        }
    }

    /// Why the file open on `descriptor` must not become the new log, or `nil` after
    /// emptying it and making it private.
    private static func refusalToReplace(_ descriptor: Int32) -> String? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return String(cString: strerror(errno)) }
        guard status.st_mode & S_IFMT == S_IFREG else { return "it is not a regular file" }
        guard status.st_uid == geteuid() else { return "it belongs to another user" }
        if status.st_size > 0 {
            guard status.st_nlink == 1 else { return "it has other hard links, so it is not replaced" }
            var magic = [UInt8](repeating: 0, count: EventLogFormat.magic.count)
            guard pread(descriptor, &magic, magic.count, 0) == magic.count, magic == EventLogFormat.magic else {
                return "it exists and is not a SignalScope trace, so it is not overwritten"
            }
            guard ftruncate(descriptor, 0) == 0 else { return String(cString: strerror(errno)) }
        }
        guard fchmod(descriptor, 0o600) == 0 else { return String(cString: strerror(errno)) }
        return nil
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        var remaining = bytes
        while !remaining.isEmpty {
            let count = Glibc.write(descriptor, remaining.baseAddress, remaining.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw RecordingError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
            }
            remaining = UnsafeRawBufferPointer(rebasing: remaining[count...])
        }
    }

    func close() throws {
        if Glibc.close(descriptor) != 0 {
            throw RecordingError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
        }
    }
}

/// Copies a finished event log to `destination` under the rules a recording follows there
/// (no symbolic link followed, only an empty file or a trace of this user replaced,
/// readable by its owner only): for a tool that recorded into a private folder first.
package func copyEventLog(from source: String, to destination: String) throws {
    guard let input = FileHandle(forReadingAtPath: source) else {
        throw RecordingError.cannotWrite(path: destination, reason: "cannot read \(source)")
    }
    defer { try? input.close() }
    let sink = try FileSink(path: destination)
    do {
        while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty {
            try chunk.withUnsafeBytes { try sink.write($0) }
        }
    } catch let error as RecordingError {
        try? sink.close()
        throw error
    } catch {
        try? sink.close()
        throw RecordingError.cannotWrite(path: destination, reason: "cannot read \(source): \(error.localizedDescription)")
    }
    try sink.close()
}

/// Keeps the log in memory, for `Tracer.record { }`.
final class MemorySink: LogSink, Sendable {
    private let storage = LockedValue<[UInt8]>([])

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        storage.withLock { $0.append(contentsOf: bytes) }
    }

    func close() throws {}

    var bytes: [UInt8] { storage.withLock { $0 } }
}

/// Why a recording could not be written.
public enum RecordingError: Error, Equatable, CustomStringConvertible {
    case cannotCreate(path: String, reason: String)
    case cannotWrite(path: String, reason: String)
    case alreadyRecording

    public var description: String {
        switch self {
        case .cannotCreate(let path, let reason): "cannot create trace file \(path): \(reason)"
        case .cannotWrite(let path, let reason): "cannot write trace file \(path): \(reason)"
        case .alreadyRecording: "a recording to a file is already running; call Tracer.stopRecording() first"
        }
    }
}
