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
    /// The peer, OpenCombine, running the same workload. The benchmark links
    /// SignalScopeOpenCombine, so this is also OpenCombine with the adapter linked and nothing
    /// recording: the adapter installs OpenCombine's hook only while a recording runs (rule
    /// I13), so OpenCombine runs the code it runs when the adapter is not linked at all.
    case openCombine = "opencombine"
    /// OpenCombine with an introspection hook of its own that does nothing: what
    /// OpenCombine's hook costs by itself, before the adapter is reached (every value is
    /// wrapped in a tap that calls its handlers before and after it).
    case openCombineHook = "opencombine-hook"
    /// OpenCombine recording through SignalScopeOpenCombine to an event log file, without
    /// value summaries: the adapter's cost.
    case openCombineTraced = "opencombine-traced"

    /// Every variant of a streaming workload.
    static let streaming: [Variant] = [.untraced, .hookOff, .traced, .tracedValues, .openCombine, .openCombineHook, .openCombineTraced]
    /// The variants of a workload that makes its subscriptions while it is timed (hook-off
    /// would trace nothing there).
    static let subscribing: [Variant] = [.untraced, .traced, .openCombine, .openCombineTraced]

    var isTraced: Bool { self == .traced || self == .tracedValues || self == .openCombineTraced }
    /// Whether the workload runs on OpenCombine rather than on SignalScope's runtime.
    var isOpenCombine: Bool { self == .openCombine || self == .openCombineHook || self == .openCombineTraced }
    /// What this variant's cost per recorded event is measured against: the same workload
    /// on the same library, untraced.
    var untracedPeer: Variant { isOpenCombine ? .openCombine : .untraced }
}
