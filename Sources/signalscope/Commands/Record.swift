import ArgumentParser
import Foundation
import SignalScopeTools

/// `signalscope record`: runs a command traced and keeps the trace, without analysing it.
struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a command with tracing on and keep its trace.",
        discussion: """
            signalscope record -o trace.sslog -- <command> [args...]

            A command that starts several traced processes (`swift test` runs its test binary \
            more than once) writes one trace per process: put %p in the name to keep each \
            (-o 'trace-%p.sslog'); otherwise the last process's trace is kept, with a warning. \
            Exits 4 when the command exited non-zero (the trace is still kept).
            """
    )

    @Option(name: .shortAndLong, help: "Where to write the trace; %p becomes each traced process's id.")
    var output: String

    @Flag(help: "Record value summaries too (SIGNALSCOPE_VALUES=1).")
    var values = false

    @Argument(parsing: .postTerminator, help: "The command to run, after --.")
    var command: [String] = []

    func run() throws {
        guard !command.isEmpty else { throw CLIError("give the command to record after --") }
        let status: Int32
        if output.contains("%p") {
            let run = TracedRun(command: command, tracePath: output, values: values)
            status = try run.run()
            reportStatus(status)
            let written = tracesMatching(output)
            guard !written.isEmpty else { throw run.wroteNoTrace(status: status) }
            for path in written { standardError("signalscope: trace written to \(path)") }
        } else {
            // Every process writes into a private folder first, so that a second one cannot
            // silently replace the first's trace.
            let folder = try TracedRun.temporaryFolder()
            defer { TracedRun.removeTemporaryFolder(folder) }
            let run = TracedRun(
                command: command, tracePath: "\(folder)/trace-%p.sslog", values: values,
                announceHint: "see it with: signalscope report \(output)")
            do {
                status = try run.run()
            } catch let interrupted as TracedRun.Interrupted {
                // What the program recorded before it was stopped is kept where it was asked
                // for (its trace says it was cut off).
                if let kept = lastWritten(in: folder) {
                    do {
                        try copyEventLog(from: kept, to: output)
                        standardError("signalscope: the trace recorded before the interruption is written to \(output)")
                    } catch {
                        standardError("signalscope: warning: the trace recorded before the interruption could not be kept: \(error)")
                    }
                }
                throw interrupted
            }
            reportStatus(status)
            let written = TracedRun.tracesWritten(in: folder)
            guard let kept = lastWritten(in: folder) else { throw run.wroteNoTrace(status: status) }
            if written.count > 1 {
                standardError("signalscope: warning: \(written.count) traced processes wrote traces; \(output) keeps the last to finish. Put %p in the name to keep each: -o '\(Self.perProcess(output))'")
            }
            do {
                try copyEventLog(from: kept, to: output)
            } catch {
                throw CLIError("\(error)")
            }
            standardError("signalscope: trace written to \(output)")
        }
        if status != 0 { throw ExitCode(ExitStatus.commandFailed) }
    }

    private func reportStatus(_ status: Int32) {
        if status != 0 { standardError("signalscope: the recorded command \(command[0]) exited with status \(status)") }
    }

    /// `t.sslog` as `t-%p.sslog`: the suggestion for a command that starts several processes.
    static func perProcess(_ path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let base = url.deletingPathExtension().lastPathComponent
        let name = url.pathExtension.isEmpty ? "\(base)-%p" : "\(base)-%p.\(url.pathExtension)"
        let folder = (path as NSString).deletingLastPathComponent
        return folder.isEmpty ? name : "\(folder)/\(name)"
    }

    /// The files a `%p` pattern became: its folder's entries with a process id in its place.
    private func tracesMatching(_ pattern: String) -> [String] {
        let folder = (pattern as NSString).deletingLastPathComponent
        let name = (pattern as NSString).lastPathComponent
        let parts = name.components(separatedBy: "%p")
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
        return entries.filter { entry in
            guard entry.hasPrefix(parts[0]), entry.hasSuffix(parts[parts.count - 1]) else { return false }
            let middle = entry.dropFirst(parts[0].count).dropLast(parts[parts.count - 1].count)
            return parts.count == 2 && !middle.isEmpty && middle.allSatisfy(\.isNumber)
        }.sorted().map { folder.isEmpty ? $0 : "\(folder)/\($0)" }
    }

    /// The trace in `folder` whose process finished last.
    private func lastWritten(in folder: String) -> String? {
        TracedRun.tracesWritten(in: folder).max { modified($0) < modified($1) }
    }

    private func modified(_ path: String) -> Date {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date) ?? .distantPast
    }
}
