import Glibc
import Synchronization

/// One thread's records, waiting for the writer: a single-producer, single-consumer ring.
///
/// Hand-written rather than a `Mutex`-guarded array because it is the tracer's hot path: the
/// owning thread appends with two atomic loads and one release store, never contending with
/// another thread; the writer thread drains it. Records never wrap around the end: when one
/// does not fit, the owner fills the rest of the ring with a padding record and starts over
/// at offset 0. When the ring is full the owner waits for the writer, so no record is lost.
final class ThreadBuffer: @unchecked Sendable {
    let threadID: UInt32
    private let capacity: Int
    private let storage: UnsafeMutableRawPointer
    /// Bytes written since creation; only the owner stores it.
    private let head = Atomic<Int>(0)
    /// Bytes consumed since creation; only the writer stores it.
    private let tail = Atomic<Int>(0)
    /// Set when the owning thread has exited; the writer forgets the buffer once drained.
    let isRetired = Atomic<Bool>(false)
    /// The event whose delivery, or scheduled follow-up, the owning thread is running, as
    /// ``Recorder`` numbers it (0: none): what the thread records meanwhile, it caused.
    /// Only the owning thread reads or writes it, so it needs no exclusivity check (one
    /// per event otherwise).
    @exclusivity(unchecked) var cause = RecordedCause.none
    /// Where the owning thread's records had got to, after the last one appended: what its
    /// next compact record is relative to. Only the owning thread reads or writes it.
    @exclusivity(unchecked) var position = ThreadPosition()
    /// The ids of the strings the owning thread met last (``ThreadStringIDs``). Only the
    /// owning thread uses it.
    let stringIDs = ThreadStringIDs()
    /// The same as `position`, after the last record drained: where the writer's next batch of this
    /// buffer starts. Only the writer reads or writes it, under its lock.
    var drainedPosition = ThreadPosition()
    /// Where the owning thread's clock readings land (``now()``): memory of the buffer's own,
    /// not a local, so that reading the clock takes no local's address, which made every
    /// delivery set and check a stack protector.
    private let clockReading = UnsafeMutablePointer<timespec>.allocate(capacity: 1)

    /// - Parameter capacity: A power of two, and a multiple of 8.
    init(threadID: UInt32, capacity: Int) {
        precondition(capacity > 0 && capacity & (capacity - 1) == 0)
        self.threadID = threadID
        self.capacity = capacity
        storage = .allocate(byteCount: capacity, alignment: 8)
        clockReading.initialize(to: timespec())
    }

    deinit {
        storage.deallocate()
        clockReading.deallocate()
    }

    /// The monotonic clock, in nanoseconds: what the owning thread's records are stamped
    /// with. Only the owning thread calls it.
    @inline(__always)
    func now() -> UInt64 {
        clock_gettime(CLOCK_MONOTONIC, clockReading)
        // The monotonic clock counts from boot: neither field is ever negative.
        return UInt64(truncatingIfNeeded: clockReading.pointee.tv_sec) &* 1_000_000_000
            &+ UInt64(truncatingIfNeeded: clockReading.pointee.tv_nsec)
    }

    /// Appends one record of `size` bytes (a multiple of 8), written by `write` in place.
    /// `waitForSpace` is called while the ring is full.
    func append(size: Int, waitForSpace: () -> Void, _ write: (UnsafeMutableRawPointer) -> Void) {
        // Wrapping arithmetic: these counts stay far from overflow (bytes written in one
        // process), and the checks cost 10 instructions a record.
        let written = head.load(ordering: .relaxed)
        var offset = written & (capacity &- 1)
        let tailRoom = capacity &- offset
        let needed = size <= tailRoom ? size : tailRoom &+ size
        while written &+ needed &- tail.load(ordering: .acquiring) > capacity { waitForSpace() }
        if size > tailRoom {
            storage.storeBytes(of: UInt32(tailRoom).littleEndian, toByteOffset: offset, as: UInt32.self)
            storage.storeBytes(of: EventLogFormat.paddingKind, toByteOffset: offset + EventLogFormat.kindOffset, as: UInt8.self)
            offset = 0
        }
        write(storage + offset)
        head.store(written &+ needed, ordering: .releasing)
    }

    /// Appends one record of `size` bytes, written by `write` in place, when it fits before
    /// the ring's end and the writer has left room: the common case, inlined into a delivery.
    /// - Returns: `false`, having written nothing, when the record would wrap or wait
    ///   (``append(size:waitForSpace:_:)`` does both).
    @inline(__always)
    func appendWithoutWaiting(size: Int, _ write: (UnsafeMutableRawPointer) -> Void) -> Bool {
        let written = head.load(ordering: .relaxed)
        let offset = written & (capacity &- 1)
        guard size <= capacity &- offset, written &+ size &- tail.load(ordering: .acquiring) <= capacity else { return false }
        write(storage + offset)
        head.store(written &+ size, ordering: .releasing)
        return true
    }

    /// Writer only: passes every complete record appended so far to `consume`, skipping
    /// padding, then frees their space.
    func drain(_ consume: (UnsafeRawBufferPointer) -> Void) {
        let end = head.load(ordering: .acquiring)
        var position = tail.load(ordering: .relaxed)
        while position < end {
            let offset = position & (capacity - 1)
            let record = UnsafeRawBufferPointer(start: storage + offset, count: min(capacity - offset, EventLogFormat.prefixSize))
            // The owner writes only whole records of a known size: a compact one, or a full
            // one (padding included) that starts with its size.
            let (size, isCompact) = EventLogFormat.nestedRecordSize(record)!
            if isCompact || record[EventLogFormat.kindOffset] != EventLogFormat.paddingKind {
                consume(UnsafeRawBufferPointer(start: storage + offset, count: size))
            }
            position += size
        }
        tail.store(position, ordering: .releasing)
    }

    /// Whether everything appended has been drained.
    var isEmpty: Bool { head.load(ordering: .acquiring) == tail.load(ordering: .acquiring) }
}
