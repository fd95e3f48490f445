extension Signal where Value: Equatable {
    /// Drops each value equal to the one sent just before it (RAC `distinctUntilChanged`).
    public func distinctUntilChanged(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Value> {
        // `==` is the runtime's own closure, not the user's: nothing to name in a leak path.
        distinctStage(SourceLocation(file, line, function), keeping: []) { $0 == $1 }
    }
}

extension Signal {
    /// Drops each value that `isEquivalent` judges the same as the last value sent
    /// (ReactiveSwift `skipRepeats(_:)`, RxSwift `distinctUntilChanged(_:)`): the first
    /// value always passes, and a dropped value is never compared with.
    ///
    /// ```swift
    /// viewModel.user.signal.distinctUntilChanged { $0.id == $1.id }
    /// ```
    public func distinctUntilChanged(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        by isEquivalent: @escaping (Value, Value) -> Bool
    ) -> Signal<Value> {
        let site = SourceLocation(file, line, function)
        return distinctStage(site, keeping: [KeptClosure(.predicate, site, isEquivalent)], isEquivalent)
    }

    fileprivate func distinctStage(
        _ site: SourceLocation, keeping closures: [KeptClosure], _ isEquivalent: @escaping (Value, Value) -> Bool
    ) -> Signal<Value> {
        Signal(operator: "distinctUntilChanged", parents: [dataEdge], site: site, keeping: closures) { subscriber in
            var previous: Value?
            self.forward(to: subscriber, site: site) { value in
                if let previous, isEquivalent(previous, value) { return }
                previous = value
                subscriber.sendNext(value)
            }
            return nil
        }
    }
}
