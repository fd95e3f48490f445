import OpenCombine
import SignalScopeTools

extension ThroughputScenario {
    /// Six map + filter pairs; every value passes every stage.
    static let chain = ThroughputScenario(
        id: "chain-12", unit: "value",
        operations: 1_000_000, variants: Variant.streaming, countedAtLeast: 20_000,
        signalScope: { count in
            let subject = Subject<Int>()
            var signal: Signal<Int> = subject
            for _ in 0..<6 { signal = signal.map { $0 &+ 1 }.filter { $0 >= 0 } }
            var sum = 0
            let disposable = signal.subscribeNext { sum &+= $0 }
            return {
                stream(count, into: subject, thenDispose: [disposable])
                return sum
            }
        },
        openCombine: { count in
            let subject = PassthroughSubject<Int, Never>()
            var publisher = subject.eraseToAnyPublisher()
            for _ in 0..<6 { publisher = publisher.map { $0 &+ 1 }.filter { $0 >= 0 }.eraseToAnyPublisher() }
            var sum = 0
            let cancellable = publisher.sink { sum &+= $0 }
            return {
                stream(count, into: subject, thenCancel: [cancellable])
                return sum
            }
        })
}
