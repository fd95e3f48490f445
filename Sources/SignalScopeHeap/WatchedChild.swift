import CTracingSupport
import Glibc
@_spi(Locking) import SignalScope

/// A copy of the process, made with `fork`, that does one piece of work, writes its result
/// into an anonymous file and exits, while the parent watches it.
///
/// A lock another thread held at the fork stays held in the child, forever: a child that
/// needs it sleeps on it, or spins on it. So the parent gives up on a child that neither
/// counts progress (on a page both share) nor uses the processor nor waits for one for
/// ``stallLimit``, and on one that uses the processor without counting progress for
/// ``spinLimit`` (seen once in a
/// busy test run: a child spun until the time limit); a child at work on a large heap (a
/// debug build sorting a million allocations between two counts) is waited for, up to
/// ``timeLimit`` in all. (The forked heap walk, ``FrozenWalk``,
/// is the one user; its own tests drive this with work that blocks, spins and overruns.)
struct WatchedChild {
    /// How long a child may neither count progress nor use the processor.
    var stallLimit: Duration = .seconds(2)
    /// How long a child may use the processor without counting progress: far longer than
    /// the walk goes between two counts (seconds, for two hundred thousand objects in a
    /// debug build).
    var spinLimit: Duration = .seconds(60)
    /// How long a child at work may take in all: work bounded by its budgets runs past this
    /// only through a fault, and the parent must go on regardless.
    var timeLimit: Duration = .seconds(600)

    enum Outcome {
        /// The bytes the child wrote.
        case finished([UInt8])
        /// The child stalled or died: a new child may do better, a lock held at this fork
        /// being free at the next.
        case failed(String)
        /// The child ran past ``WatchedChild/timeLimit``: a new one would do the same, as slowly.
        case overran(String)
    }

    /// A child that has been made, for the parent to wait for; its file and shared page
    /// are let go with it.
    final class Started {
        fileprivate let pid: pid_t
        fileprivate let file: Int32
        fileprivate let progress: UnsafeMutablePointer<UInt64>

        fileprivate init(pid: pid_t, file: Int32, progress: UnsafeMutablePointer<UInt64>) {
            self.pid = pid
            self.file = file
            self.progress = progress
        }

        deinit {
            close(file)
            ProgressSlots.giveBack(progress)
        }
    }

    /// Forks; the child runs `work`, which counts its progress up through the pointer it is
    /// given and returns the bytes to hand back, and exits. Returns in the parent only.
    static func start(
        _ work: (_ progress: UnsafeMutablePointer<UInt64>) -> [UInt8]
    ) -> Result<Started, ForkFailure> {
        let file = signalscope_anonymous_file()
        guard file >= 0 else { return .failure(ForkFailure("no anonymous file: \(String(cString: strerror(errno)))")) }
        guard let progress = ProgressSlots.take() else {
            close(file)
            return .failure(ForkFailure("no shared page: \(String(cString: strerror(errno)))"))
        }
        progress.pointee = 0
        let child = signalscope_fork_for_snapshot()
        if child == 0 { _exit(write(work(progress), to: file) ? 0 : 1) }
        guard child > 0 else {
            let reason = String(cString: strerror(errno))
            close(file)
            ProgressSlots.giveBack(progress)
            return .failure(ForkFailure(reason))
        }
        return .success(Started(pid: child, file: file, progress: progress))
    }

    /// The counters children count their progress in, in pages shared with them that are
    /// mapped once and never unmapped. Symbolication (on any thread: another recording's
    /// stacks and sites) reads every named mapping's first bytes, in place where the kernel
    /// denies reading through `process_vm_readv` (``LoadedImages``), and a shared anonymous
    /// page is named `/dev/zero (deleted)`: one unmapped meanwhile crashed the process. A slot is given back only once its child has
    /// been reaped, so no child counts into another's.
    private enum ProgressSlots {
        private static let free = LockedValue<[UnsafeMutablePointer<UInt64>]>([])
        private static let perPage = 512

        static func take() -> UnsafeMutablePointer<UInt64>? {
            free.withLock { free in
                if free.isEmpty {
                    let size = perPage * MemoryLayout<UInt64>.stride
                    guard let page = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0), page != MAP_FAILED
                    else { return nil }
                    let slots = page.bindMemory(to: UInt64.self, capacity: perPage)
                    free = (0..<perPage).map { slots + $0 }
                }
                return free.removeLast()
            }
        }

        static func giveBack(_ slot: UnsafeMutablePointer<UInt64>) {
            free.withLock { $0.append(slot) }
        }
    }

    /// No child could be made (a sandbox forbids `fork`).
    struct ForkFailure: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// In the parent: waits for `child`, killing it if it stalls or overruns.
    func wait(for child: Started) -> Outcome {
        let clock = ContinuousClock()
        let start = clock.now
        var last = (counted: UInt64.max, processorTime: UInt64.max)
        var lastChange = start
        var lastCount = start
        var pause = 20_000
        while true {
            var status: Int32 = 0
            let waited = waitpid(child.pid, &status, WNOHANG)
            if waited == child.pid { return Self.finished(status: status, file: child.file) }
            if waited < 0, errno != EINTR { return .failed("the child could not be waited for: \(String(cString: strerror(errno)))") }
            let processor = Self.processorUse(of: child.pid)
            let seen = (counted: child.progress.pointee, processorTime: processor?.time ?? 0)
            // A child waiting for a processor on a loaded machine is not blocked: only one that
            // sleeps (on a lock, say) and uses no processor time stalls.
            if seen != last || processor?.isRunnable == true {
                if seen.counted != last.counted { lastCount = clock.now }
                last = seen
                lastChange = clock.now
            }
            if clock.now - start > timeLimit {
                Self.kill(child.pid)
                return .overran("it had not finished after \(timeLimit)")
            }
            if clock.now - lastCount > spinLimit {
                Self.kill(child.pid)
                return .failed("it counted no progress for \(spinLimit) while it used the processor, likely spinning on a lock held at the fork")
            }
            if clock.now - lastChange > stallLimit {
                Self.kill(child.pid)
                return .failed("it made no progress and used no processor time for \(stallLimit), likely blocked on a lock held at the fork")
            }
            var interval = timespec(tv_sec: 0, tv_nsec: pause)
            nanosleep(&interval, nil)
            pause = min(pause * 2, 2_000_000)
        }
    }

    private static func kill(_ child: pid_t) {
        Glibc.kill(child, SIGKILL)
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0, errno == EINTR {}
    }

    /// The processor time `child` has used, in clock ticks (`utime` and `stime` of
    /// `/proc/<pid>/stat`), and whether it is running or waiting for a processor (its state
    /// `R`); `nil` where they cannot be read.
    static func processorUse(of child: pid_t) -> (time: UInt64, isRunnable: Bool)? {
        let file = open("/proc/\(child)/stat", O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { return nil }
        defer { close(file) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = buffer.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        // The command name, in parentheses, may hold spaces and parentheses: fields are
        // counted after its last one. There, state is field 3 of the file; utime 14, stime 15.
        guard let nameEnd = buffer[..<count].lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = buffer[(nameEnd + 1)..<count].split(separator: UInt8(ascii: " "))
        guard fields.count > 12, let user = UInt64(String(decoding: fields[11], as: UTF8.self)),
            let system = UInt64(String(decoding: fields[12], as: UTF8.self))
        else { return nil }
        return (user &+ system, fields[0].first == UInt8(ascii: "R"))
    }

    private static func write(_ bytes: [UInt8], to file: Int32) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = Glibc.write(file, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
    }

    private static func finished(status: Int32, file: Int32) -> Outcome {
        let exited = status & 0x7F == 0
        guard exited else { return .failed("it was stopped by signal \(status & 0x7F)") }
        guard (status >> 8) & 0xFF == 0 else { return .failed("it could not write what it found") }
        let size = lseek(file, 0, SEEK_END)
        guard size >= 0, lseek(file, 0, SEEK_SET) == 0 else { return .failed("its result could not be read") }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        let complete = bytes.withUnsafeMutableBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let count = read(file, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
        return complete ? .finished(bytes) : .failed("its result could not be read")
    }
}
