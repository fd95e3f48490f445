import ArgumentParser
import Foundation
import SignalScope

/// Runs a program with `SIGNALSCOPE_TRACE` pointing at a trace file, so that a program
/// that links SignalScopeAutoTrace records itself with no code change.
struct TracedRun {
    let command: [String]
    /// The trace's path; `%p` becomes each traced process's id.
    let tracePath: String
    let values: Bool
    /// Where the traced program's line about a retained object sends the reader
    /// (`SIGNALSCOPE_ANNOUNCE_HINT`): the trace it writes is this command's to show.
    var announceHint: String?
    /// Whether the program's standard output goes to standard error instead, so that a
    /// report on standard output is never mixed with what the program prints.
    var outputToStandardError = false

    /// Runs the command to completion with inherited standard streams and returns its exit
    /// status (128 + the signal number when a signal ended it, as shells report it).
    ///
    /// The program runs in a process group of its own, given the terminal when signalscope
    /// has it, so that the wrapper can stop it and everything it started: SIGINT, SIGTERM and
    /// SIGHUP sent to signalscope go to that group, signalscope waits for the program, and
    /// then throws ``Interrupted`` (the caller's cleanup runs; the exit status is 128 + the
    /// signal). Without that, a CI runner's SIGTERM left the program running and its traces'
    /// temporary folder behind.
    func run() throws -> Int32 {
        guard let name = command.first else {
            throw CLIError("no command given after --")
        }
        let executable = try Self.resolve(name)
        var environment = ProcessInfo.processInfo.environment
        environment["SIGNALSCOPE_TRACE"] = tracePath
        if values { environment["SIGNALSCOPE_VALUES"] = "1" }
        if let announceHint { environment["SIGNALSCOPE_ANNOUNCE_HINT"] = announceHint }
        let child = try spawn(executable, environment: environment)
        let status = Interruptions.wait(for: child)
        if let signal = Interruptions.received {
            throw Interrupted(signal: signal, command: name)
        }
        return status
    }

    /// signalscope was sent `signal` while the command ran; the command was sent it too and
    /// has ended.
    struct Interrupted: Error, CustomStringConvertible {
        let signal: Int32
        let command: String
        var description: String {
            "interrupted by \(Interruptions.name(of: signal)): \(command) was sent the same signal and has ended; nothing was analysed"
        }
    }

    /// Starts `executable` with `command`'s arguments and `environment` in a new process
    /// group, with default signal dispositions and an empty signal mask.
    private func spawn(_ executable: String, environment: [String: String]) throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var defaults = sigset_t(), empty = sigset_t()
        sigemptyset(&empty)
        sigemptyset(&defaults)
        for signal in Interruptions.handled + [SIGTTOU, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        if outputToStandardError { posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO) }
        let arguments = [executable] + command.dropFirst()
        let variables = environment.map { "\($0.key)=\($0.value)" }
        var child: pid_t = 0
        let result = withCStrings(arguments) { argv in
            withCStrings(variables) { envp in posix_spawn(&child, executable, &actions, &attributes, argv, envp) }
        }
        guard result == 0 else { throw CLIError("cannot run \(command[0]): \(String(cString: strerror(result)))") }
        return child
    }

    /// The error for a run that ended with `status` and left no trace behind: a failing
    /// command is exit 4 like any failing command (its status is already printed), with the
    /// missing trace said on standard error; a command that succeeded without one is an
    /// error of its own (exit 1).
    func wroteNoTrace(status: Int32, ignoringStatus: Bool = false) -> any Error {
        let missing = noTraceReason
        guard status != 0, !ignoringStatus else { return CLIError(missing) }
        standardError("signalscope: error: \(missing)")
        return ExitCode(ExitStatus.commandFailed)
    }

    /// Why a run left no trace, in one line.
    var noTraceReason: String {
        "\(command[0]) wrote no trace: does it link SignalScopeAutoTrace, and does it exit normally (not by a crash)?"
    }

    /// A fresh private folder for the traces of one run, removed by the caller with
    /// ``removeTemporaryFolder(_:)``, or by ``Interruptions`` if signalscope is interrupted
    /// before.
    static func temporaryFolder() throws -> String {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("signalscope-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)").path
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw CLIError("cannot create trace folder \(folder): \(reason(error))")
        }
        Interruptions.removeWhenInterrupted(folder)
        return folder
    }

    /// Removes a folder ``temporaryFolder()`` made.
    static func removeTemporaryFolder(_ folder: String) {
        Interruptions.forget(folder)
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// The traces the processes of a run wrote into `folder` (named `trace-%p.sslog`).
    static func tracesWritten(in folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasPrefix("trace-") && $0.hasSuffix(".sslog") }.sorted().map { "\(folder)/\($0)" }
    }

    /// The process id in a trace's name (`trace-%p.sslog`).
    static func processID(ofTrace path: String) -> String {
        String((path as NSString).lastPathComponent.dropFirst("trace-".count).dropLast(".sslog".count))
    }

    /// The executable `name` names: a path as given, otherwise the first match on `PATH`.
    static func resolve(_ name: String) throws -> String {
        let manager = FileManager.default
        if name.contains("/") {
            guard manager.isExecutableFile(atPath: name) else {
                throw CLIError(manager.fileExists(atPath: name) ? "not executable: \(name)" : "command not found: \(name)")
            }
            return name
        }
        let searchPath = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in searchPath.split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if manager.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw CLIError("command not found: \(name)")
    }
}

/// Runs `body` with `strings` as a nul-terminated array of C strings.
private func withCStrings<Result>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> Result) -> Result {
    var pointers = strings.map { strdup($0) }
    defer { for pointer in pointers { free(pointer) } }
    pointers.append(nil)
    return body(pointers)
}

