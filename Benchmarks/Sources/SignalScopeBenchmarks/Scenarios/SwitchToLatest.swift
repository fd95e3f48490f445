import OpenCombine
import SignalScopeTools

extension ThroughputScenario {
    /// Every value becomes a new inner signal that switchToLatest subscribes to.
    static let switchToLatest = ThroughputScenario(
        id: "switch-latest", unit: "value",
        operations: 1_000_000, variants: Variant.subscribing,
        signalScope: { count in
            {
                let subject = Subject<Int>()
                var sum = 0
                let disposable = subject.map { Signal.just($0) }.switchToLatest().subscribeNext { sum &+= $0 }
                stream(count, into: subject, thenDispose: [disposable])
                return sum
            }
        },
        openCombine: { count in
            {
                let subject = PassthroughSubject<Int, Never>()
                var sum = 0
                let cancellable = subject.map { Just($0) }.switchToLatest().sink { sum &+= $0 }
                stream(count, into: subject, thenCancel: [cancellable])
                return sum
            }
        })
}
