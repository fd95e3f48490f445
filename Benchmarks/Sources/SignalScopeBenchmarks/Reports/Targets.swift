/// The bar docs/performance.md sets, checked against a run's measurements.
struct Target: Codable, Sendable {
    let name: String
    let met: Bool
    /// The measured figures the verdict rests on.
    let measured: String

    static func evaluate(_ results: [Measurement]) -> [Target] {
        let streaming = ["subject-map-filter", "fanout-100", "chain-12"]
        let perEvent = streaming.compactMap { scenario in
            results.first { $0.scenario == scenario && $0.variant == Variant.traced.rawValue }?.nsPerEvent
                .map { (scenario, $0) }
        }
        let analysis = results.filter { $0.scenario == "analyze" }
        return [
            Target(
                "untraced ≤ 1/3 of OpenCombine's time (first three scenarios and churn)",
                results.ratios(streaming + ["churn"], .untraced, .openCombine)) { $0 <= 1.0 / 3 },
            Target("hook-off within 5% of untraced", results.ratios(streaming, .hookOff, .untraced)) { $0 <= 1.05 },
            Target("traced (values off) ≤ 1.5× untraced", results.ratios(streaming, .traced, .untraced)) { $0 <= 1.5 },
            Target("traced (values off) faster than OpenCombine", results.ratios(streaming, .traced, .openCombine)) { $0 < 1 },
            Target("≤ 25 ns per recorded event", perEvent, suffix: " ns") { $0 <= 25 },
            Target(
                "analysis ≥ 2 million events/s",
                analysis.compactMap { m in m.eventsPerSecond.map { (m.variant, $0 / 1e6) } }, suffix: "M/s"
            ) { $0 >= 2 },
            flatMemory(analysis),
            linearReadBack(results.filter { $0.scenario == "read-switch-latest" }),
            linearLeakedSubscriptions(results.filter { $0.scenario == "analyze-leaked-subscriptions" }),
        ].compactMap { $0 }
    }

    /// Linear means a hundred times the leaked subscriptions to one signal made before
    /// recording cost at most 25% more each to read and analyse (each once scanned all the
    /// others).
    private static func linearLeakedSubscriptions(_ rows: [Measurement]) -> Target? {
        let sized = rows.compactMap { m in m.subscriptions.map { ($0, m.nsPerOp) } }.sorted { $0.0 < $1.0 }
        guard let small = sized.first, let large = sized.last, large.0 > small.0 else { return nil }
        return Target(
            name: "analysing leaked subscriptions to one signal is linear in their number",
            met: large.1 <= small.1 * 1.25,
            measured: "\(Format.count(small.0)) subscriptions \(Format.number(small.1 / 1000)) µs each, "
                + "\(Format.count(large.0)) subscriptions \(Format.number(large.1 / 1000)) µs each")
    }

    /// Linear means the larger switch-latest trace costs at most 25% more per event to read
    /// and analyse than the smaller one (reading it back was once quadratic).
    private static func linearReadBack(_ rows: [Measurement]) -> Target? {
        let sized = rows.compactMap { m in m.events.map { ($0, m.nsPerOp) } }.sorted { $0.0 < $1.0 }
        guard let small = sized.first, let large = sized.last, large.0 > small.0 else { return nil }
        return Target(
            name: "reading a switch-latest trace back is linear in its events",
            met: large.1 <= small.1 * 1.25,
            measured: "\(Format.count(small.0)) events \(Format.number(small.1)) ns/event, \(Format.count(large.0)) events \(Format.number(large.1)) ns/event")
    }

    /// Flat means the larger trace's peak is within 25% (or 1 MiB, for a small heap) of the
    /// smaller one's, though it has ten times the events.
    private static func flatMemory(_ analysis: [Measurement]) -> Target? {
        let sized = analysis.compactMap { m in m.events.flatMap { events in m.peakHeapMebibytes.map { (events, $0) } } }
            .sorted { $0.0 < $1.0 }
        guard let small = sized.first, let large = sized.last, large.0 > small.0 else { return nil }
        return Target(
            name: "analysis memory flat in the number of events",
            met: large.1 <= max(small.1 * 1.25, small.1 + 1),
            measured: "\(Format.count(small.0)) events \(Format.number(small.1)) MiB, "
                + "\(Format.count(large.0)) events \(Format.number(large.1)) MiB")
    }
}
