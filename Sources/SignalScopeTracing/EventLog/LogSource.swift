import Glibc
import SignalScopeHeap

/// Where an event log's bytes are read from: a file, read with `pread` a window at a time,
/// or bytes already in memory.
///
/// A log is not memory-mapped: a mapped file that another process truncates while it is
/// read (the program writing it still runs, a tool rotates it) faults with SIGBUS, which
/// no Swift code can recover from. Reads through `pread` return fewer bytes instead, which
/// the reader reports as a file that shrank; and memory holds a window per thread of the
/// log, not the log.
enum LogSource {
    case file(descriptor: Int32, count: Int)
    case memory(UnsafeRawBufferPointer)

    /// The log's size when reading started; bytes appended later are not read.
    var count: Int {
        switch self {
        case .file(_, let count): count
        case .memory(let bytes): bytes.count
        }
    }

    /// Copies the bytes from `offset` into `buffer` and returns how many there were (fewer
    /// than asked at the end of the log, or when the file shrank).
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Int {
        guard offset < count, let base = buffer.baseAddress else { return 0 }
        let wanted = min(buffer.count, count - offset)
        switch self {
        case .memory(let bytes):
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + wanted)]))
            return wanted
        case .file(let descriptor, _):
            var done = 0
            while done < wanted {
                let got = pread(descriptor, base + done, wanted - done, off_t(offset + done))
                if got < 0 && errno == EINTR { continue }
                guard got > 0 else { break }
                done += got
            }
            return done
        }
    }
}

/// A stretch of the log held in memory, from byte offset `start`.
struct LogWindow {
    private var start = 0
    /// The bytes the window holds; `storage` owns them. Reading goes through this pointer
    /// rather than through an array, whose buffer would be retained and released around each
    /// record's read.
    private var held = UnsafeRawBufferPointer(start: nil, count: 0)
    private var storage: Storage?
    /// How many bytes a reload reads beyond what was asked, so that small records are read
    /// a window at a time rather than one system call each.
    private let chunk: Int

    /// The memory a window's bytes are in, freed with the last copy of the window.
    private final class Storage {
        let memory: UnsafeMutableRawBufferPointer

        init(count: Int) { memory = .allocate(byteCount: count, alignment: 8) }
        deinit { memory.deallocate() }
    }

    init(chunk: Int) {
        self.chunk = chunk
    }

    /// Whether the window holds `range`, reading it from `source` (with what follows, up to
    /// a chunk but not past `limit`) if it does not; `false` if the log ends, or the file
    /// shrank, before its end. The limit keeps a window to the stretch it serves: a log
    /// of many threads' short runs must not cost a whole chunk per thread.
    @inline(__always) mutating func load(_ range: Range<Int>, from source: LogSource, limit: Int) -> Bool {
        if range.lowerBound >= start, range.upperBound <= start + held.count { return true }
        return reload(range, from: source, limit: limit)
    }

    private mutating func reload(_ range: Range<Int>, from source: LogSource, limit: Int) -> Bool {
        start = range.lowerBound
        let wanted = max(range.count, min(chunk, limit - range.lowerBound))
        // Memory another copy of the window still reads is left to it.
        if !isKnownUniquelyReferenced(&storage) || storage!.memory.count < wanted { storage = Storage(count: max(wanted, 1)) }
        let memory = UnsafeMutableRawBufferPointer(rebasing: storage!.memory[..<wanted])
        held = UnsafeRawBufferPointer(start: memory.baseAddress, count: source.read(into: memory, at: range.lowerBound))
        return range.count <= held.count
    }

    /// Where the bytes the window holds end, in the log.
    var end: Int { start + held.count }

    /// The address of the byte at `offset`, which a successful `load` put in the window
    /// (unchecked: for a reader that knows it is below ``end``): valid until the window
    /// loads again or is dropped.
    @inline(__always) func address(of offset: Int) -> UnsafeRawPointer {
        held.baseAddress.unsafelyUnwrapped + (offset &- start)
    }

    /// The bytes of `range`, which a successful `load` put in the window: valid until the
    /// window loads again or is dropped.
    func bytes(_ range: Range<Int>) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: held[(range.lowerBound - start)..<(range.upperBound - start)])
    }
}

extension UnsafeRawBufferPointer {
    func u16(_ offset: Int) -> UInt16 { UInt16(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt16.self)) }
    func u32(_ offset: Int) -> UInt32 { UInt32(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }
    func u64(_ offset: Int) -> UInt64 { UInt64(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
}
