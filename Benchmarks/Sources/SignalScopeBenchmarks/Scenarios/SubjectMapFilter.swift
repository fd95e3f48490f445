import OpenCombine
import SignalScopeTools

extension ThroughputScenario {
    /// subject → map → filter → subscriber; half the values pass the filter.
    static let subjectMapFilter = ThroughputScenario(
        id: "subject-map-filter", unit: "value",
        operations: 10_000_000, variants: Variant.streaming,
        signalScope: { count in
            let subject = Subject<Int>()
            var sum = 0
            let disposable = subject.map { $0 &+ 1 }.filter { $0 & 1 == 0 }.subscribeNext { sum &+= $0 }
            return {
                stream(count, into: subject, thenDispose: [disposable])
                return sum
            }
        },
        openCombine: { count in
            let subject = PassthroughSubject<Int, Never>()
            var sum = 0
            let cancellable = subject.map { $0 &+ 1 }.filter { $0 & 1 == 0 }.sink { sum &+= $0 }
            return {
                stream(count, into: subject, thenCancel: [cancellable])
                return sum
            }
        })
}
