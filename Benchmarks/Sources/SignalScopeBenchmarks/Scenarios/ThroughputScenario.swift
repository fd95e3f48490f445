/// A workload run on SignalScope, traced in several ways, and on OpenCombine.
///
/// Each side's closure builds its pipeline, untimed, and returns the timed part, which
/// returns a checksum of what the subscribers received: every variant must report the same
/// one, so a variant cannot look fast by doing less.
struct ThroughputScenario: Sendable {
    /// The id used in `--only` and the JSON output.
    let id: String
    /// What one operation is ("value", "delivery", ...): times are per operation.
    let unit: String
    private(set) var operations: Int
    private(set) var variants: [Variant]
    /// The fewest operations `make bench-instructions` counts, whatever its scale: the
    /// measured region also does work once (disposing the subscriptions it streamed to,
    /// which a stopped recording still hears of), and that must stay under 1% of what is
    /// counted per operation.
    var countedAtLeast = 0
    let signalScope: @Sendable (_ operations: Int) -> () -> Int
    let openCombine: @Sendable (_ operations: Int) -> () -> Int

    /// The same workload with `factor` times as many operations (at least one).
    func scaled(by factor: Double) -> ThroughputScenario {
        var scaled = self
        scaled.operations = max(1, Int(Double(operations) * factor))
        return scaled
    }

    /// The same workload with only those of `variants` it has (all of them when empty).
    func restricted(to variants: [Variant]) -> ThroughputScenario {
        guard !variants.isEmpty else { return self }
        var restricted = self
        restricted.variants = self.variants.filter(variants.contains)
        return restricted
    }

    static let all: [ThroughputScenario] = [.subjectMapFilter, .fanOut, .chain, .churn, .switchToLatest, .allocation]
}
