import OpenCombine
import SignalScopeTools

extension ThroughputScenario {
    /// Subscribing to `just(1).map` and disposing, over and over: the cost of a
    /// subscription's whole life rather than of an event.
    static let churn = ThroughputScenario(
        id: "churn", unit: "subscription",
        operations: 1_000_000, variants: Variant.subscribing,
        signalScope: { count in
            {
                var sum = 0
                for _ in 0..<count {
                    Signal.just(1).map { $0 &+ 1 }.subscribeNext { sum &+= $0 }.dispose()
                }
                return sum
            }
        },
        openCombine: { count in
            {
                var sum = 0
                for _ in 0..<count {
                    Just(1).map { $0 &+ 1 }.sink { sum &+= $0 }.cancel()
                }
                return sum
            }
        })
}
