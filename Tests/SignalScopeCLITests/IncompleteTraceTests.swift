import Foundation
import SignalScopeTools
import Testing

/// A CI gate never passes on what it did not see: a program killed while traced, and a
/// privileged program that must not trace at all.
@Suite("Incomplete traces and privileged programs", .timeLimit(.minutes(10)))
struct IncompleteTraceTests {
    final class Screen {
        let taps = Subject<Int>()
        var count = 0
        func observe() { taps.subscribeNext { _ in self.count += 1 } }
    }

    @Test("A traced program killed with SIGKILL leaves a trace that check reads, warns about and fails as incomplete (exit 3)")
    func killedProgram() async throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        let path = cli.path("killed.sslog")
        setenv("SIGNALSCOPE_TEST_KILLED_TRACE", path, 1)
        await #expect(processExitsWith: .signal(SIGKILL)) {
            let path = String(cString: getenv("SIGNALSCOPE_TEST_KILLED_TRACE"))
            try Tracer.startRecording(to: URL(fileURLWithPath: path))
            var screens: [Screen] = []
            let start = Date()
            while Date().timeIntervalSince(start) < 0.3 {
                let screen = Screen()
                screen.observe()
                screen.taps.sendNext(1)
                screens.append(screen)
            }
            kill(getpid(), SIGKILL)
        }
        let result = try cli.signalscope("check", "killed.sslog")
        #expect(result.status == 3, "\(result.standardOutput)\(result.standardError)")
        #expect(result.standardError.contains("killed.sslog has no end record"))
        #expect(result.standardOutput.contains("incomplete: the trace has no closing heap snapshot"))
        #expect(result.standardOutput.contains("check incomplete: leaks may be missing"))
        for command in [["stats", "killed.sslog"], ["graph", "killed.sslog", "-o", "g.dot"], ["timeline", "killed.sslog", "-o", "t.svg"]] {
            let result = try cli.signalscope(command)
            #expect(result.status == 0, "\(command): \(result.standardError)")
            #expect(result.standardError.contains("has no end record"), "every command says so: \(command)")
            #expect(result.standardError.contains("warning: incomplete: the trace has no closing heap snapshot"), "\(command)")
        }
        let accepted = try cli.signalscope("check", "killed.sslog", "--allow-incomplete")
        #expect(accepted.status == 0 && accepted.standardOutput.contains("check passed"))
    }

    @Test("A trace whose process could not read its own memory fails check (exit 3), and every command says so")
    func memoryUnreadable() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        var log = CraftedLog()
        log.node(1)
        log.subscribe(1, to: 1)
        log.snapshot(flags: 1 << 2)
        log.end()
        try log.write(to: cli.path("sandboxed.sslog"))
        let check = try cli.signalscope("check", "sandboxed.sslog", "--format", "text", "--format", "github")
        #expect(check.status == 3, "\(check.standardOutput)\(check.standardError)")
        #expect(check.standardOutput.contains("incomplete: the process could not read its own memory"))
        #expect(check.standardOutput.contains("::error title=signalscope incomplete::the process could not read its own memory"))
        #expect(try cli.signalscope("check", "sandboxed.sslog", "--allow-incomplete").status == 0)
        for command in [["stats", "sandboxed.sslog"], ["graph", "sandboxed.sslog", "-o", "g.svg"], ["export", "sandboxed.sslog", "--jsonl", "r.jsonl"]] {
            let result = try cli.signalscope(command)
            #expect(result.status == 0 && result.standardError.contains("warning: incomplete: the process could not read its own memory"), "\(command): \(result.standardError)")
        }
    }

    @Test(
        "A set-user-id program ignores SIGNALSCOPE_TRACE: it creates and truncates nothing as its owner",
        .enabled(if: getuid() == 0, "needs root to give a program another owner"))
    func setUserID() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        // The program runs as `nobody` while its caller (root here) keeps its real id: the
        // kernel marks it secure, as for any set-id or file-capability program.
        let program = cli.path("PlantedLeaks")
        // Copied through a close-on-exec descriptor: a program another test spawns meanwhile
        // must not inherit it open for writing, or running the copy fails with ETXTBSY. A
        // child forked without exec (another test's heap walk) still holds it until it
        // exits, so running the copy is retried while the kernel says it is busy.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: CLIRunner.product("PlantedLeaks")))
        let descriptor = open(program, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
        try #require(descriptor >= 0)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        try #require(written == bytes.count)
        chmod(cli.folder.path, 0o755)
        #expect(chown(program, 65534, 65534) == 0)
        #expect(chmod(program, 0o4755) == 0)
        let victim = cli.path("victim.sslog")
        let errors = Pipe()
        let process = try launchRetryingWhileBusy {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: program)
            process.environment = ["SIGNALSCOPE_TRACE": victim]
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            return process
        }
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(!FileManager.default.fileExists(atPath: victim))
        #expect(message.contains("signalscope: not recording: SIGNALSCOPE_TRACE is ignored in a set-id or privileged process"))
    }

    /// Launches the process `make` describes, waiting out ETXTBSY (its executable still open
    /// for writing in a forked child) for up to ten seconds.
    private func launchRetryingWhileBusy(_ make: () -> Process) throws -> Process {
        for _ in 0..<100 {
            let process = make()
            do {
                try process.run()
                return process
            } catch let error as NSError {
                let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError
                guard underlying?.domain == NSPOSIXErrorDomain, underlying?.code == Int(ETXTBSY) else { throw error }
                usleep(100_000)
            }
        }
        let process = make()
        try process.run()
        return process
    }
}
