import Foundation
@testable import SignalScopeHeap
@testable import SignalScopeTracing
import Testing

/// The closing heap walk runs in a forked child the recording waits for: a child blocked on
/// a lock held at the fork must be given up on at once, a child busy with a large heap must
/// be waited for, and nothing may keep the recording waiting forever.
@Suite("A watched child process", .timeLimit(.minutes(10)))
struct WatchedChildTests {
    private func outcome(
        stallLimit: Duration = .milliseconds(300), spinLimit: Duration = .seconds(30), timeLimit: Duration = .seconds(60),
        _ work: (UnsafeMutablePointer<UInt64>) -> [UInt8]
    ) throws -> WatchedChild.Outcome {
        let child = try WatchedChild.start(work).get()
        return WatchedChild(stallLimit: stallLimit, spinLimit: spinLimit, timeLimit: timeLimit).wait(for: child)
    }

    private func busy(for duration: Duration) {
        let end = ContinuousClock.now + duration
        var spins = 0
        while ContinuousClock.now < end { spins &+= 1 }
        withExtendedLifetime(spins) {}
    }

    @Test("A child that finishes hands back its bytes")
    func finishes() throws {
        guard case .finished(let bytes) = try outcome({ _ in [1, 2, 3] }) else {
            Issue.record("the child's bytes were not handed back")
            return
        }
        #expect(bytes == [1, 2, 3])
    }

    /// A test runner reads its tests' output to its end: a child blocked on a lock, outliving
    /// a parent that crashed, kept the output open and the runner waiting forever.
    @Test("A child dies with the process that made it")
    func diesWithItsParent() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("signalscope-orphan-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        await #expect(processExitsWith: .success) {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("signalscope-orphan-\(getppid())").path
            _ = WatchedChild.start { _ in
                // Off the exit test's output and back channel, which the runner reads to their
                // end: without the fix this test then fails instead of hanging as the runner did.
                let null = open("/dev/null", O_WRONLY)
                dup2(null, STDOUT_FILENO)
                dup2(null, STDERR_FILENO)
                for descriptor in 3..<Int32(clamping: min(sysconf(Int32(_SC_OPEN_MAX)), 65_536)) { close(descriptor) }
                try? "\(getpid())".write(toFile: path, atomically: true, encoding: .utf8)
                while true { pause() }
            }
            // The parent ends while the child waits, without waiting for it.
            while !FileManager.default.fileExists(atPath: path) { usleep(10_000) }
            exit(0)
        }
        let child = try #require(pid_t(try String(contentsOfFile: path, encoding: .utf8)))
        // Dead: gone, or a zombie its new parent has not reaped yet (a container's first
        // process may never reap).
        func dead() -> Bool {
            guard let stat = try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8) else { return true }
            return stat.split(separator: ")").last?.split(separator: " ").first == "Z"
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while !dead(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(dead(), "the child \(child) outlived its parent")
        if !dead() { kill(child, SIGKILL) }
    }

    @Test("A child blocked on a lock held at the fork is given up on, and says why")
    func blockedOnALock() throws {
        let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        defer { lock.deallocate() }
        pthread_mutex_init(lock, nil)
        pthread_mutex_lock(lock)
        let start = ContinuousClock.now
        let result = try outcome { _ in
            pthread_mutex_lock(lock)
            return [1]
        }
        pthread_mutex_unlock(lock)
        guard case .failed(let reason) = result else {
            Issue.record("a blocked child was not given up on: \(result)")
            return
        }
        #expect(reason.contains("blocked on a lock held at the fork"), "\(reason)")
        #expect(ContinuousClock.now - start < .seconds(30))
    }

    @Test("A child at work that counts no progress is waited for while it uses the processor")
    func busyChild() throws {
        // Busy for three stall limits; the limit is a second, not the suite's 0.3, so that a
        // loaded machine leaving the child without a processor for a moment is no stall.
        let result = try outcome(stallLimit: .seconds(1)) { _ in
            busy(for: .seconds(3))
            return [7]
        }
        guard case .finished(let bytes) = result else {
            Issue.record("a busy child was given up on: \(result)")
            return
        }
        #expect(bytes == [7])
    }

    @Test("A child that spins without counting progress is given up on, and says why")
    func spinningChild() throws {
        let result = try outcome(spinLimit: .milliseconds(700)) { _ in
            while true { busy(for: .seconds(1)) }
        }
        guard case .failed(let reason) = result else {
            Issue.record("a spinning child was waited for: \(result)")
            return
        }
        #expect(reason.contains("spinning on a lock held at the fork"), "\(reason)")
    }

    @Test("A child that never finishes is killed at the time limit, not retried")
    func overrun() throws {
        let result = try outcome(stallLimit: .seconds(60), timeLimit: .milliseconds(500)) { progress in
            while true { progress.pointee &+= 1 }
        }
        guard case .overran(let reason) = result else {
            Issue.record("an endless child was not stopped: \(result)")
            return
        }
        #expect(reason.contains("had not finished"), "\(reason)")
    }

    @Test("A child that dies says by which signal")
    func dies() throws {
        let result = try outcome { _ in
            raise(SIGKILL)
            return []
        }
        guard case .failed(let reason) = result else {
            Issue.record("a dead child's result was taken: \(result)")
            return
        }
        #expect(reason.contains("stopped by signal 9"), "\(reason)")
    }

    @Test("The processor time of a process, and whether it runs or waits for a processor, are read from /proc")
    func processorUse() throws {
        // A child that computes, and one that sleeps (as on a lock): fork's child runs only
        // this code, which takes no lock.
        let spinning = fork()
        if spinning == 0 { while true {} }
        let sleeping = fork()
        if sleeping == 0 { while true { pause() } }
        defer {
            for child in [spinning, sleeping] {
                kill(child, SIGKILL)
                var status: Int32 = 0
                while waitpid(child, &status, 0) < 0, errno == EINTR {}
            }
        }
        busy(for: .milliseconds(200))
        let spinner = try #require(WatchedChild.processorUse(of: spinning))
        #expect(spinner.isRunnable, "a child that computes runs or waits for a processor")
        #expect(WatchedChild.processorUse(of: sleeping)?.isRunnable == false, "a child that sleeps is not runnable")
        #expect((WatchedChild.processorUse(of: getpid())?.time ?? 0) > 0)
        #expect(WatchedChild.processorUse(of: -1) == nil)
    }
}
