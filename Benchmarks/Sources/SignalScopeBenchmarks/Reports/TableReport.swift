/// The results as the tables `make bench` prints.
enum TableReport {
    static func render(_ results: [Measurement], targets: [Target], machine: Machine, repetitions: Int) -> String {
        var lines = [
            "SignalScope benchmarks: release build, \(machine.cpu), \(machine.cores) cores, "
                + "\(Format.number(machine.memoryGibibytes)) GiB, \(machine.system), \(machine.date)",
            "\(repetitions == 1 ? "one run" : "median of \(repetitions) runs") after warm-up; "
                + "× columns are ratios of medians from this run",
            "",
        ]
        let throughput = results.filter { $0.eventsPerSecond == nil && $0.seconds == nil }
        if !throughput.isEmpty { lines += throughputTable(throughput) + [""] }
        let analysis = results.filter { $0.eventsPerSecond != nil }
        if !analysis.isEmpty {
            lines.append(row(["analysis", "events", "events/s", "ns/event", "peak heap"], [30, 12, 12, 10, 11]))
            for m in analysis {
                lines.append(row([
                    "\(m.scenario) \(m.variant)", Format.count(m.events ?? 0), Format.number((m.eventsPerSecond ?? 0) / 1e6) + "M",
                    Format.number(m.nsPerOp), Format.number(m.peakHeapMebibytes ?? 0) + " MiB",
                ], [30, 12, 12, 10, 11]))
            }
            lines.append("")
        }
        let rendering = results.filter { $0.nodes != nil }
        if !rendering.isEmpty {
            lines.append(row(["render to SVG", "graph", "nodes drawn", "seconds"], [14, 12, 12, 10]))
            for m in rendering {
                lines.append(row(
                    [m.scenario, m.variant, Format.count(m.nodes ?? 0), Format.number(m.seconds ?? 0)],
                    [14, 12, 12, 10]))
            }
            lines.append("")
        }
        let snapshots = results.filter { $0.objects != nil }
        if !snapshots.isEmpty {
            lines.append(row(["closing snapshot", "objects", "seconds", "ns/object", "peak growth", "pause"], [16, 10, 10, 10, 12, 10]))
            for m in snapshots {
                lines.append(row([
                    m.scenario, Format.count(m.objects ?? 0), Format.number(m.seconds ?? 0), Format.number(m.nsPerOp),
                    Format.number(m.peakHeapMebibytes ?? 0) + " MiB", Format.number(m.pauseMilliseconds ?? 0) + " ms",
                ], [16, 10, 10, 10, 12, 10]))
            }
            lines.append("")
        }
        if !targets.isEmpty {
            lines.append("targets")
            for target in targets {
                lines.append("  \(target.met ? "met   " : "MISSED") \(target.name): \(target.measured)")
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func throughputTable(_ results: [Measurement]) -> [String] {
        let widths = [20, 20, 10, 13, 14, 11, 10, 9]
        var lines = [row(
            ["scenario", "variant", "ns/op", "per", "× OpenCombine", "× untraced", "events/op", "ns/event"], widths)]
        var previous: String?
        for m in results {
            lines.append(row([
                m.scenario == previous ? "" : m.scenario, m.variant, Format.number(m.nsPerOp), m.unit,
                results.ratioText(of: m, to: .openCombine),
                Variant(rawValue: m.variant)?.isOpenCombine == true ? "" : results.ratioText(of: m, to: .untraced),
                m.eventsPerOp.map(Format.number) ?? "", m.nsPerEvent.map(Format.number) ?? "",
            ], widths))
            previous = m.scenario
        }
        return lines
    }

    static func row(_ cells: [String], _ widths: [Int]) -> String {
        zip(cells, widths).enumerated().map { index, cell in
            Format.padded(cell.0, cell.1, right: index > 1 && index != 3)
        }.joined(separator: " ").trimmingTrailingSpaces()
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
