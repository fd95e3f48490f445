import SignalScopeTools

extension ThroughputScenario {
    /// Allocating small objects of the app's, as any code does between events: untraced, the
    /// runtime's allocation entry point; traced, the allocation table's hook as well, which
    /// notes each object so that the closing walk can start from every one (docs/analyzers.md,
    /// "The whole heap"). The difference is the hook's cost per allocation. OpenCombine has
    /// no part in it: the peer runs the same allocations, for a baseline of the machine.
    static let allocation = ThroughputScenario(
        id: "allocation", unit: "allocation",
        operations: 2_000_000, variants: [.untraced, .traced, .openCombine],
        signalScope: { count in { allocate(count) } },
        openCombine: { count in { allocate(count) } })

    final class Cell {
        let value: Int
        init(_ value: Int) { self.value = value }
    }

    /// Keeps a window of the latest cells, so that allocations are neither elided nor all
    /// alive at once.
    private static func allocate(_ count: Int) -> Int {
        var window = [Cell?](repeating: nil, count: 64)
        var sum = 0
        for index in 0..<count {
            let cell = Cell(index)
            sum &+= window[index & 63]?.value ?? 0
            window[index & 63] = cell
        }
        return sum
    }
}
