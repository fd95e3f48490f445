import ArgumentParser
import Foundation

/// `signalscope record`: runs a command traced and keeps the trace, without analysing it.
struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a command with tracing on and keep its trace.",
        discussion: "signalscope record -o trace.sslog -- <command> [args...]"
    )

    @Option(name: .shortAndLong, help: "Where to write the trace.")
    var output: String

    @Flag(help: "Record value summaries too (SIGNALSCOPE_VALUES=1).")
    var values = false

    @Argument(parsing: .postTerminator, help: "The command to run, after --.")
    var command: [String] = []

    func run() throws {
        guard !command.isEmpty else { throw CLIError("give the command to record after --") }
        let run = TracedRun(command: command, tracePath: output, values: values)
        let status = try run.run()
        if status != 0 { standardError("signalscope: \(command[0]) exited with status \(status)") }
        if !FileManager.default.fileExists(atPath: output) {
            throw run.wroteNoTrace
        }
        standardError("signalscope: trace written to \(output)")
        if status != 0 { throw ExitCode(status) }
    }
}
