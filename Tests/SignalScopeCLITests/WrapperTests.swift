import Foundation
import Testing

/// `check -- <command>` and `record -- <command>` as CI runs them: stopped by the runner,
/// or wrapping a command that fails before it records anything.
@Suite("The wrapper and its program", .timeLimit(.minutes(10)))
struct WrapperTests {
    @Test("SIGTERM, SIGINT or SIGHUP to the wrapper reach the program's whole group; the wrapper waits, removes its temporary traces and exits 128 + the signal", arguments: [SIGTERM, SIGINT, SIGHUP])
    func signalsAreForwarded(signal: Int32) throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        let temporary = cli.path("tmp")
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        // The program starts a child of its own, notes which signal reached each, and
        // notes that it has started.
        let script = cli.path("program.sh")
        try """
            #!/bin/bash
            sleep 60 &
            sleeper=$!
            trap 'echo "program $1" >> \(cli.path("signals")); kill $sleeper; exit 1' INT TERM HUP
            echo started > \(cli.path("started"))
            wait
            """.replacingOccurrences(of: "$1", with: "got").write(toFile: script, atomically: true, encoding: .utf8)
        #expect(chmod(script, 0o755) == 0)
        for command in ["check", "record"] {
            try? FileManager.default.removeItem(atPath: cli.path("started"))
            try? FileManager.default.removeItem(atPath: cli.path("signals"))
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CLIRunner.product("signalscope"))
            process.arguments = command == "check" ? ["check", "--", script] : ["record", "-o", cli.path("t.sslog"), "--", script]
            process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": temporary]) { $1 }
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let deadline = Date().addingTimeInterval(30)
            while !FileManager.default.fileExists(atPath: cli.path("started")) && Date() < deadline { usleep(20_000) }
            #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).count == 1, "\(command): the traces' temporary folder exists while it runs")
            kill(process.processIdentifier, signal)
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 128 + signal, "\(command): \(message)")
            #expect(message.contains("interrupted by SIG"), "\(command): \(message)")
            #expect((try? String(contentsOfFile: cli.path("signals"), encoding: .utf8)) == "program got\n", "\(command): the program was sent the signal")
            #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).isEmpty, "\(command): the temporary folder is gone")
        }
    }

    @Test("A wrapped command that fails before recording anything exits 4, like any failing command, and says it wrote no trace")
    func failingWithoutATrace() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        for command in [["check", "--", "/bin/false"], ["record", "-o", "t.sslog", "--", "/bin/false"]] {
            let result = try cli.signalscope(command)
            #expect(result.status == 4, "\(command): \(result.standardError)")
            #expect(result.standardError.contains("exited with status 1") && result.standardError.contains("wrote no trace"), "\(command): \(result.standardError)")
        }
        let succeeded = try cli.signalscope("check", "--", "/bin/true")
        #expect(succeeded.status == 1 && succeeded.standardError.contains("wrote no trace"), "\(succeeded.standardError)")
    }
}
