/// signalscope's exit codes, one meaning each; part of the contract (`docs/cli.md`, and the
/// plugin reads them).
enum ExitStatus {
    /// Nothing failed.
    static let success: Int32 = 0
    /// A usage or I/O error: a bad option, an unreadable trace, a command not found, an
    /// unwritable output. The one line on standard error says which.
    static let usageOrIO: Int32 = 1
    /// `check`: a finding at or above `--fail-on`.
    static let failingFindings: Int32 = 2
    /// `check`: no failing finding, but the analysis could not see the whole heap.
    static let incomplete: Int32 = 3
    /// `check` and `record`: the wrapped command exited non-zero (its status is reported on
    /// standard error); `check --ignore-exit-code` does not fail on it.
    static let commandFailed: Int32 = 4
}
