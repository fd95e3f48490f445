import CTracingSupport
import Glibc

/// Where the bytes of a log a user names are read from, before any of them is read: a
/// regular file, read where it lies; a pipe, a FIFO or a terminal, read to its end into an
/// anonymous file first, so that it can be read at any offset, and twice (a command that
/// loads a trace, then streams its records). ``Trace``'s readers open logs through it.
package enum LogInput {
    /// The most a pipe or FIFO is read: its bytes are held in memory, where a file's are not.
    static let streamLimit = 4 << 30

    /// Opens `path` for reading without waiting: a FIFO opens at once, writer or not.
    package static func open(_ path: String) throws(TraceReadError) -> Int32 {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        return descriptor
    }

    /// Runs `body` on what `descriptor` reads: a regular file a window at a time; anything
    /// else (a pipe, a FIFO, a terminal) read to its end first (``seekable(_:path:)``).
    static func withSource<Result>(
        descriptor: Int32, path: String, _ body: (LogSource) throws(TraceReadError) -> Result
    ) throws(TraceReadError) -> Result {
        let readable = try seekable(descriptor, path: path)
        defer { if readable != descriptor { close(readable) } }
        var status = stat()
        guard fstat(readable, &status) == 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        return try body(.file(descriptor: readable, count: Int(status.st_size)))
    }

    /// A descriptor of what `descriptor` reads that can be read at any offset, as a file
    /// is: `descriptor` itself when it is a regular file; for a pipe, a FIFO or a terminal, a
    /// new anonymous file in memory holding everything it reads until its end (at most
    /// ``streamLimit`` bytes), which the caller closes. A FIFO no program opens for writing
    /// within a quarter of a second has nothing to read and is refused; one whose writer has
    /// yet to write is waited for.
    package static func seekable(_ descriptor: Int32, path: String) throws(TraceReadError) -> Int32 {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return descriptor
        case S_IFDIR: throw .unreadable(path: path, reason: "it is a directory, not a trace")
        default: break
        }
        let copy = signalscope_anonymous_file()
        guard copy >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        var succeeded = false
        defer { if !succeeded { close(copy) } }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var total = 0
        // A writer may be opening the FIFO as it is opened here: a moment's grace before an
        // end with nothing read means nobody writes.
        var grace = 25
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                total += count
                guard total <= streamLimit else {
                    throw .unreadable(path: path, reason: "it is a stream of more than \(streamLimit >> 30) GiB; write it to a file first")
                }
                guard writeAll(chunk[..<count], to: copy) else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
                continue
            }
            if count == 0 {
                if total == 0, status.st_mode & S_IFMT == S_IFIFO {
                    guard grace > 0 else { throw .unreadable(path: path, reason: "no program is writing into this FIFO") }
                    grace -= 1
                    var pause = timespec(tv_sec: 0, tv_nsec: 10_000_000)
                    nanosleep(&pause, nil)
                    continue
                }
                succeeded = true
                return copy
            }
            switch errno {
            case EINTR: continue
            case EAGAIN:
                // A writer is there and has not written yet.
                var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&request, 1, -1)
            default:
                throw .unreadable(path: path, reason: String(cString: strerror(errno)))
            }
        }
    }

    private static func writeAll(_ bytes: ArraySlice<UInt8>, to descriptor: Int32) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                let wrote = write(descriptor, buffer.baseAddress! + done, buffer.count - done)
                if wrote < 0, errno == EINTR { continue }
                guard wrote > 0 else { return false }
                done += wrote
            }
            return true
        }
    }
}
