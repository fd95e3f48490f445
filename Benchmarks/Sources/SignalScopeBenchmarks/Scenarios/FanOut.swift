import OpenCombine
import SignalScopeTools

extension ThroughputScenario {
    /// One subject, 100 subscribers; an operation is one value reaching one subscriber.
    static let fanOut = ThroughputScenario(
        id: "fanout-100", unit: "delivery",
        operations: 10_000_000, variants: Variant.streaming, countedAtLeast: 200_000,
        signalScope: { count in
            let subject = Subject<Int>()
            var sum = 0
            let disposables = (0..<subscribers).map { _ in subject.subscribeNext { sum &+= $0 } }
            return {
                stream(count / subscribers, into: subject, thenDispose: disposables)
                return sum
            }
        },
        openCombine: { count in
            let subject = PassthroughSubject<Int, Never>()
            var sum = 0
            let cancellables = (0..<subscribers).map { _ in subject.sink { sum &+= $0 } }
            return {
                stream(count / subscribers, into: subject, thenCancel: cancellables)
                return sum
            }
        })

    private static let subscribers = 100
}
