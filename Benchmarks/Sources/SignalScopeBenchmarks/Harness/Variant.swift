import ArgumentParser

/// One way of running a scenario's workload.
enum Variant: String, CaseIterable, Codable, Sendable, ExpressibleByArgument {
    /// SignalScope with no instrumentation hook installed: what an app pays with tracing off.
    case untraced
    /// SignalScope whose subscriptions were made while a recording ran, which then stopped:
    /// every event still calls the installed hook, which finds the recording over and
    /// returns. The seam cannot be compiled out, so this is its cost when switched off.
    case hookOff = "hook-off"
    /// SignalScope recording to an event log file, without value summaries.
    case traced
    /// SignalScope recording to an event log file, with a summary of every value.
    case tracedValues = "traced-values"
    /// The peer, OpenCombine, running the same workload.
    case openCombine = "opencombine"

    /// Every variant of a streaming workload.
    static let streaming: [Variant] = [.untraced, .hookOff, .traced, .tracedValues, .openCombine]
    /// The variants of a workload that makes its subscriptions while it is timed (hook-off
    /// would trace nothing there).
    static let subscribing: [Variant] = [.untraced, .traced, .openCombine]

    var isTraced: Bool { self == .traced || self == .tracedValues }
}
