import ArgumentParser
import Foundation
import SignalScope
import SignalScopeTools
import Synchronization

/// The `signalscope` command: traces programs, analyses traces for leaks, draws them.
///
/// Exit codes are part of the contract (``ExitStatus``, `docs/cli.md`): 0 nothing failed,
/// 1 a usage or I/O error, 2 failing findings, 3 an incomplete analysis, 4 a wrapped command
/// that exited non-zero. The help's block of them is written to read at 80 columns, the
/// width ArgumentParser wraps at when the output is not a terminal.
@main
struct SignalScopeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signalscope",
        abstract: "Trace reactive Swift programs, draw their signal graphs and find their leaks.",
        discussion: """
            EXIT CODES
              0  nothing failed
              1  usage or I/O error: bad option, unreadable trace, command not
                 found, unwritable output
              2  check: failing findings (see check --fail-on)
              3  check: an incomplete analysis (no end record or closing heap
                 snapshot, memory reads denied, the heap walk's budget spent),
                 unless --allow-incomplete
              4  check, record: the wrapped command exited non-zero (its status
                 is printed on standard error), unless check --ignore-exit-code
              128+N  check, record: interrupted by signal N (SIGINT, SIGTERM,
                     SIGHUP), sent on to the wrapped command; nothing analysed
            """,
        version: SignalScopeVersion.current,
        subcommands: [Check.self, Rules.self, Record.self, Report.self, Live.self, Graph.self, Timeline.self, Export.self, Stats.self, Demo.self]
    )

    /// Runs the command with SignalScope's exit codes: argument errors exit 1, not
    /// ArgumentParser's 64, so that CI scripts see one code for "could not run".
    static func main() async {
        StandardStreams.holdClosedOnes()
        Interruptions.install()
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
            exit(ExitStatus.success)
        } catch let code as ExitCode {
            exit(code.rawValue)
        } catch let interrupted as TracedRun.Interrupted {
            standardError("signalscope: \(interrupted.description)")
            exit(128 + interrupted.signal)
        } catch {
            if exitCode(for: error) == .success {
                standardOutput(fullMessage(for: error))
                exit(ExitStatus.success)
            }
            standardError("signalscope: error: \(message(for: error))")
            exit(ExitStatus.usageOrIO)
        }
    }

    /// Exits with `status`, once what went to standard output is known to be written: a
    /// report redirected to a full disk, or to a closed descriptor, is an I/O error (exit 1),
    /// never a success with an empty file.
    private static func exit(_ status: Int32) -> Never {
        if let failure = standardOutputFailure.withLock({ $0 }) {
            standardError("signalscope: error: cannot write standard output: \(failure)")
            Foundation.exit(ExitStatus.usageOrIO)
        }
        Foundation.exit(status)
    }
}

/// Writes `text` and `terminator` to standard output, unbuffered. A failed write (a full
/// disk, a closed descriptor) of what the command was asked for is remembered, not thrown:
/// the command goes on, and exits 1 with the reason once it is done
/// (``SignalScopeCommand/main()``). A failed write of a mere `notice` (where a file was
/// written) loses the notice alone: the file is what was asked for, and it is there.
func standardOutput(_ text: String, terminator: String = "\n", notice: Bool = false) {
    do {
        try FileHandle.standardOutput.write(contentsOf: Data((text + terminator).utf8))
    } catch {
        if !notice { standardOutputFailure.withLock { failure in failure = failure ?? reason(error) } }
    }
}

private let standardOutputFailure = Mutex<String?>(nil)

/// Writes one line to standard error, whole, never after ``lastStandardError(_:)``. Messages
/// name files and quote traces and arguments, any of which may hold escape sequences or line
/// breaks: they are shown, not obeyed. A standard error that cannot be written (closed, a full
/// disk) loses the line and nothing else: there is nowhere left to say so.
func standardError(_ line: String) {
    standardErrorEnded.withLock { ended in
        if !ended { writeStandardError(line) }
    }
}

/// Writes the last line signalscope writes to standard error, as it exits from another thread
/// than the one at work (a signal's): what that one would say after it (that the report is
/// ready) is no longer true, and is not written.
func lastStandardError(_ line: String) {
    standardErrorEnded.withLock { ended in
        if !ended { writeStandardError(line) }
        ended = true
    }
}

private let standardErrorEnded = Mutex(false)

private func writeStandardError(_ line: String) {
    try? FileHandle.standardError.write(contentsOf: Data((TerminalText.sanitized(line) + "\n").utf8))
}

enum StandardStreams {
    /// Puts a placeholder that cannot be written (`/dev/null`, read-only) on each of the
    /// standard descriptors signalscope was started without (`2>&-`, as some CI wrappers and
    /// daemons run tools). Writes to it fail as they would on the closed descriptor, but the
    /// number is taken: a trace or report signalscope opens can never become its "standard
    /// error", and the wrapped program inherits the same.
    static func holdClosedOnes() {
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            let placeholder = open("/dev/null", O_RDONLY)
            if placeholder >= 0, placeholder != descriptor {
                dup2(placeholder, descriptor)
                close(placeholder)
            }
        }
    }
}
