import Foundation
import SignalScopeTools

/// Drawing a trace's signal graph to SVG as `signalscope graph` does (trace → graph → DOT
/// → Graphviz), for traces with about 1,000 and 10,000 nodes, with look-alike nodes
/// collapsed (the default) and with every node drawn.
struct RenderScenario {
    let nodeCounts: [Int]
    let repetitions: Int
    let progress: (String) -> Void

    func run() throws -> [Measurement] {
        var measurements: [Measurement] = []
        for target in nodeCounts {
            let trace = Self.trace(nodes: target)
            let id = "render-\(target >= 1000 ? "\(target / 1000)k" : "\(target)")"
            for collapse in [true, false] {
                let options = SignalGraph.Options(collapse: collapse, maximumNodes: .max)
                var times: [Double] = []
                var nodes = 0
                for round in 0..<repetitions {
                    progress("\(id) \(collapse ? "collapsed" : "uncollapsed") round \(round + 1)/\(repetitions)")
                    let (drawn, nanoseconds) = try Stopwatch.time {
                        let graph = SignalGraph(trace: trace, options: options)
                        _ = try GraphvizRenderer.render(DOTWriter.dot(graph), format: .svg)
                        return graph.nodes.count
                    }
                    nodes = drawn
                    times.append(Double(nanoseconds))
                }
                var measurement = Measurement(
                    scenario: id, variant: collapse ? "collapsed" : "uncollapsed", nsPerOp: times.median,
                    unit: "render", repetitions: repetitions)
                measurement.seconds = times.median / 1e9
                measurement.nodes = nodes
                measurements.append(measurement)
            }
        }
        return measurements
    }

    /// A trace of a list screen's rows, each a subject, a map stage and a subscriber (three
    /// graph nodes), all alive at the end: one row per three nodes asked for.
    static func trace(nodes: Int) -> Trace {
        var rows: [(Subject<Int>, Disposable)] = []
        let trace = Tracer.record {
            for row in 0..<max(1, nodes / 3) {
                let subject = Subject<Int>()
                let disposable = subject.map { $0 + row }.subscribeNext { _ in }
                subject.sendNext(row)
                rows.append((subject, disposable))
            }
        }
        withExtendedLifetime(rows) {}
        return trace
    }
}
