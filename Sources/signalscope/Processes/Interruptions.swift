import Foundation
import SignalScope
import Synchronization

/// SIGINT, SIGTERM and SIGHUP, from signalscope's start to its exit (``install()``).
///
/// - While a wrapped program runs (``wait(for:)``), a signal is sent on to its process group
///   and remembered (``received``); signalscope waits for the program, and the command's
///   own cleanup runs as it unwinds.
/// - While `live` waits to be stopped (``stopRequested()``), a signal ends the wait.
/// - Anywhere else (reading a trace, analysing it, writing the final report), signalscope
///   removes the temporary folders it made, says so in one line, and exits 128 + the signal.
///   Without that, a Ctrl-C or a CI timeout while a large trace was analysed killed it with no
///   word and left the whole trace in `$TMPDIR`.
enum Interruptions {
    static let handled = [SIGINT, SIGTERM, SIGHUP]

    private enum Mode {
        case exit
        case forward(group: pid_t)
        case wake(CheckedContinuation<Void, Never>)
    }

    private struct State {
        var mode = Mode.exit
        var received: Int32?
        var folders: Set<String> = []
        /// Processes signalscope started for itself (the live page's final report).
        var processes: Set<pid_t> = []
        /// A signal is removing the folders and ending signalscope.
        var ending = false
    }

    private static let state = Mutex(State())

    /// Catches the signals; called once, before any command runs.
    static func install() {
        let sources = handled.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { arrived(number) }
            source.resume()
            return source
        }
        self.sources = sources
    }

    /// The signal sources, kept for the whole run. Written once, by ``install()``, before any
    /// command runs and before any other thread could read it (nothing does).
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    /// The first signal sent on to a wrapped program, if any.
    static var received: Int32? { state.withLock { $0.received } }

    static func name(of signal: Int32) -> String {
        [SIGINT: "SIGINT", SIGTERM: "SIGTERM", SIGHUP: "SIGHUP"][signal] ?? "signal \(signal)"
    }

    /// Removes `folder` if signalscope is interrupted before ``forget(_:)``.
    static func removeWhenInterrupted(_ folder: String) { state.withLock { _ = $0.folders.insert(folder) } }

    static func forget(_ folder: String) { state.withLock { _ = $0.folders.remove(folder) } }

    /// Ends `process` if signalscope is interrupted before ``forget(process:)``: nothing
    /// signalscope started for itself runs on after it.
    static func stopWhenInterrupted(_ process: pid_t) { state.withLock { _ = $0.processes.insert(process) } }

    static func forget(process: pid_t) { state.withLock { _ = $0.processes.remove(process) } }

    /// Runs `write` unless a signal is ending signalscope, and holds off the signal's cleanup
    /// until it is done: a file written into a folder while the folder is removed would keep it.
    static func unlessEnding(_ write: () -> Void) {
        state.withLock { state in
            if !state.ending { write() }
        }
    }

    private static func arrived(_ number: Int32) {
        let action: () -> Void = state.withLock { state in
            switch state.mode {
            case .forward(let group):
                state.received = state.received ?? number
                return { kill(-group, number) }
            case .wake(let waiting):
                state.mode = .exit
                return { waiting.resume() }
            case .exit:
                guard !state.ending else { return {} }
                state.ending = true
                let (folders, processes) = (state.folders, state.processes)
                return {
                    // Its work is in a folder about to go, and its word would repeat ours. It is
                    // waited for: a process still writing there would leave the folder behind.
                    for process in processes {
                        kill(process, SIGKILL)
                        // Until it has ended, leaving it for its own waiter to reap (WNOWAIT).
                        var info = siginfo_t()
                        while waitid(P_PID, id_t(process), &info, WEXITED | WNOWAIT) < 0, errno == EINTR {}
                    }
                    for folder in folders { try? FileManager.default.removeItem(atPath: folder) }
                    let kept = folders.isEmpty ? "" : "; its temporary files are removed"
                    lastStandardError("signalscope: interrupted by \(name(of: number))\(kept)")
                    _exit(128 + number)
                }
            }
        }
        action()
    }

    /// Returns when a signal comes.
    static func stopRequested() async {
        await withCheckedContinuation { waiting in state.withLock { $0.mode = .wake(waiting) } }
    }

    /// Waits for `pid` to end, sending it the signals signalscope is sent, and returns its
    /// status as a shell reports it (128 + the signal when one ended it). The terminal, if
    /// signalscope has it, is the program's while it runs.
    static func wait(for pid: pid_t) -> Int32 {
        let early = state.withLock { state in
            state.mode = .forward(group: pid)
            return state.received
        }
        defer { state.withLock { $0.mode = .exit } }
        // A signal that came before the program existed is its too.
        if let early { kill(-pid, early) }
        let terminal = isatty(STDIN_FILENO) == 1 && tcgetpgrp(STDIN_FILENO) == getpgrp()
        if terminal {
            signal(SIGTTOU, SIG_IGN)
            tcsetpgrp(STDIN_FILENO, pid)
            // It may have stopped reading a terminal that was not yet its own.
            kill(-pid, SIGCONT)
        }
        var status: Int32 = 0
        while true {
            guard waitpid(pid, &status, terminal ? WUNTRACED : 0) >= 0 else {
                if errno == EINTR { continue }
                break
            }
            // Stopped from the terminal (^Z): signalscope stops too, as the shell expects of
            // its job, and when continued gives the program the terminal again.
            guard terminal, status & 0xFF == 0x7F else { break }
            tcsetpgrp(STDIN_FILENO, getpgrp())
            kill(getpid(), SIGSTOP)
            tcsetpgrp(STDIN_FILENO, pid)
            kill(-pid, SIGCONT)
        }
        if terminal {
            tcsetpgrp(STDIN_FILENO, getpgrp())
            signal(SIGTTOU, SIG_DFL)
        }
        let termination = status & 0x7F
        return termination == 0 ? (status >> 8) & 0xFF : 128 + termination
    }
}
