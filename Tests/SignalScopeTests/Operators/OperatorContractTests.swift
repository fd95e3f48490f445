import SignalScopeTools
import SignalScopeTesting
import Testing

/// Rule O0, checked for every operator with one source: errors pass through, and ending
/// the result disposes every subscription the operator made and releases the observer.
@Suite("Operators: the common contract", .timeLimit(.minutes(10)))
struct OperatorContractTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let apply: @Sendable (Signal<Int>, TestScheduler) -> Signal<Int>
        /// Whether the source's error reaches the result; `retry()` resubscribes instead.
        let forwardsErrors: Bool
        var testDescription: String { name }

        init(
            _ name: String, forwardsErrors: Bool = true,
            _ apply: @escaping @Sendable (Signal<Int>, TestScheduler) -> Signal<Int>
        ) {
            self.name = name
            self.forwardsErrors = forwardsErrors
            self.apply = apply
        }
    }

    /// Every operator the registry can apply to one source.
    static let operators: [Case] = OperatorRegistry.contractCases

    @Test("O0: an error from the source reaches the result (retry() subscribes again instead)", arguments: operators)
    func errorsPassThrough(_ operation: Case) {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal([.next(1, 1), .error(2, "boom")])
        let observer = TestObserver(operation.apply(source.signal, scheduler), clock: scheduler)
        scheduler.advance(by: 10)
        let errors = observer.recordedEvents.filter { if case .error = $0 { true } else { false } }
        if operation.forwardsErrors {
            #expect(observer.recordedEvents.last == .error("boom"))
            #expect(errors.count == 1)
        } else {
            #expect(errors.isEmpty)
            #expect(source.subscriptions.count > 1, "each error subscribes again")
        }
    }

    @Test("O0: disposing the result disposes every subscription the operator made and releases the observer",
          arguments: operators)
    func disposalReachesUpstream(_ operation: Case) {
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal([.next(1, 1), .next(10, 2)])
        let (disposable, probe) = CaptureProbe.attach { capture in
            operation.apply(source.signal, scheduler).subscribeNext { _ in _ = capture }
        }
        scheduler.advance(by: 3)
        #expect(!probe.isReleased)
        disposable.dispose()
        #expect(probe.isReleased)
        #expect(!source.subscriptions.isEmpty)
        #expect(source.subscriptions.allSatisfy { $0.ended == 3 }, "\(source.subscriptions)")
        scheduler.run()
    }
}
