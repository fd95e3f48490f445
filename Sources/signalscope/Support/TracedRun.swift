import Foundation

/// Runs a program with `SIGNALSCOPE_TRACE` pointing at a trace file, so that a program
/// that links SignalScopeAutoTrace records itself with no code change.
struct TracedRun {
    let command: [String]
    /// The trace's path; `%p` becomes each traced process's id.
    let tracePath: String
    let values: Bool
    /// Whether the program's standard output goes to standard error instead, so that a
    /// report on standard output is never mixed with what the program prints.
    var outputToStandardError = false

    /// Runs the command to completion with inherited standard streams and returns its exit
    /// status (128 + the signal number when a signal ended it, as shells report it).
    func run() throws -> Int32 {
        guard let name = command.first else {
            throw CLIError("no command given after --")
        }
        let executable = try Self.resolve(name)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = Array(command.dropFirst())
        var environment = ProcessInfo.processInfo.environment
        environment["SIGNALSCOPE_TRACE"] = tracePath
        if values { environment["SIGNALSCOPE_VALUES"] = "1" }
        process.environment = environment
        if outputToStandardError { process.standardOutput = FileHandle.standardError }
        do {
            try process.run()
        } catch {
            throw CLIError("cannot run \(name): \(reason(error))")
        }
        process.waitUntilExit()
        switch process.terminationReason {
        case .uncaughtSignal: return 128 + process.terminationStatus
        default: return process.terminationStatus
        }
    }

    /// The error for a run that left no trace behind.
    var wroteNoTrace: CLIError {
        CLIError("\(command[0]) wrote no trace: does it link SignalScopeAutoTrace, and does it exit normally (not by a crash)?")
    }

    /// A fresh private folder for the traces of one run, removed by the caller.
    static func temporaryFolder() throws -> String {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("signalscope-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)").path
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw CLIError("cannot create trace folder \(folder): \(reason(error))")
        }
        return folder
    }

    /// The traces the processes of a run wrote into `folder` (named `trace-%p.sslog`).
    static func tracesWritten(in folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasPrefix("trace-") && $0.hasSuffix(".sslog") }.sorted().map { "\(folder)/\($0)" }
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
