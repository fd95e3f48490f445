import Foundation
import SignalScopeTools

/// Options every command that reads a trace shares.
enum TraceLoading {
    /// Reads the trace at `path`, reporting a truncated tail as a warning on standard error
    /// (the records before it are still used) and a one-line status on a terminal while it works.
    /// `detail` is what the command needs: analysis alone reads only what is still alive.
    ///
    /// What keeps an analysis from seeing everything (no closing snapshot, memory reads
    /// denied, a spent budget) is a warning too, so that every command says a trace is
    /// incomplete; `check`, whose reports say it in each format, passes `reportsLimitations: false`.
    static func load(_ path: String, detail: Trace.Detail = .everything, reportsLimitations: Bool = true) throws -> Trace {
        try load(TraceInput(path), detail: detail, reportsLimitations: reportsLimitations)
    }

    /// ``load(_:detail:reportsLimitations:)`` for an input already open.
    static func load(_ input: TraceInput, detail: Trace.Detail = .everything, reportsLimitations: Bool = true) throws -> Trace {
        // Small traces read in a blink; a bar for them would only flicker.
        let status = TerminalStatus(enabled: input.size > 8 << 20)
        defer { status.clear() }
        let trace: Trace
        do {
            trace = try input.read(detail: detail) { fraction in
                status.showProgress("reading \(TerminalText.sanitized(input.name))", fraction: fraction)
            }
        } catch {
            throw CLIError(error.description)
        }
        for warning in trace.warnings { standardError("signalscope: warning: \(warning)") }
        if reportsLimitations {
            for limitation in trace.analysisLimitations { standardError("signalscope: warning: incomplete: \(limitation)") }
        }
        return trace
    }
}

/// A single progress line on standard error, drawn only when it is a terminal, so that
/// logs and pipes never receive it.
struct TerminalStatus {
    private let enabled: Bool

    init(enabled: Bool = true) {
        self.enabled = enabled && isatty(STDERR_FILENO) == 1
    }

    /// `label [#########           ]  45%`, redrawn in place.
    func showProgress(_ label: String, fraction: Double) {
        guard enabled else { return }
        let width = 30
        let filled = Int((min(max(fraction, 0), 1) * Double(width)).rounded())
        let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
        let percent = Int((fraction * 100).rounded())
        try? FileHandle.standardError.write(contentsOf: Data("\r\u{1B}[2K\(label) [\(bar)] \(percent)%".utf8))
    }

    func clear() {
        guard enabled else { return }
        try? FileHandle.standardError.write(contentsOf: Data("\r\u{1B}[2K".utf8))
    }
}
