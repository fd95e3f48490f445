extension Signal {
    /// Pairs each value of this signal with the latest value of `other`, once `other` has
    /// sent one (ReactiveSwift `withLatest(from:)`, RxSwift `withLatestFrom(_:)`; RAC 2 has
    /// no such selector: it is `sample(on:)` with the roles swapped and both values kept).
    ///
    /// Completes when this signal completes; `other` completing keeps its last value, and
    /// its error fails the result, as every source's does (rule O0). `other` is subscribed
    /// first, so a value it sends while being subscribed pairs with this signal's first.
    public func withLatest<Other>(
        from other: Signal<Other>,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<(Value, Other)> {
        let site = SourceLocation(file, line, function)
        return Signal<(Value, Other)>(operator: "withLatest", parents: [dataEdge, other.dataEdge], site: site) {
            subscriber in
            let latest = Locked<Other?>(nil)
            other.forward(to: subscriber, site: site, next: { value in latest.withLock { $0 = value } }, completed: {})
            self.forward(to: subscriber, site: site) { value in
                if let paired = latest.withLock({ $0 }) { subscriber.sendNext((value, paired)) }
            }
            return nil
        }
    }
}
