import ArgumentParser
import Foundation
import SignalScopeTools

/// `signalscope live`: runs a command traced and shows its signals on a page while it runs.
struct Live: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a command traced and watch its signals, events and leaks on a live page.",
        discussion: """
            signalscope live [--port N] [--values] [--exit-when-done] -- <command> [args...]

            Serves a page on 127.0.0.1 only and prints, on standard error, before the command \
            starts: signalscope: live at http://127.0.0.1:PORT/?token=TOKEN. The token is random \
            for each run and every request needs it. The page is the report's, its graph and \
            timeline growing as the program makes signals and events, and each watched object \
            still alive after its deadline (Tracer.expectDeallocation) appears as a \
            retained-after-release finding within a second; when \
            the program ends, the page becomes its final report. The server then stays up until \
            Ctrl-C, or with --exit-when-done exits once every page connected at the end has \
            received it (at once if none is connected). Exits 0, 4 when the command failed, 1 when \
            signalscope itself could not run.
            """
    )

    @Option(help: "The port to serve on, on 127.0.0.1 (default: any free port).")
    var port: UInt16 = 0

    @Flag(help: "Record value summaries and show them on the page (SIGNALSCOPE_VALUES=1).")
    var values = false

    @Flag(help: "Exit once the command has ended and every connected page has its final report.")
    var exitWhenDone = false

    @Argument(parsing: .postTerminator, help: "The command to run, after --.")
    var command: [String] = []

    func run() async throws {
        guard !command.isEmpty else { throw CLIError("give the command to run after --") }
        let folder = try TracedRun.temporaryFolder()
        defer { TracedRun.removeTemporaryFolder(folder) }
        let session = LiveSession(command: command, folder: folder, port: port, values: values, exitWhenDone: exitWhenDone)
        let status = try await session.run()
        if status != 0 {
            standardError("signalscope: \(command[0]) exited with status \(status)")
            throw ExitCode(ExitStatus.commandFailed)
        }
    }
}
