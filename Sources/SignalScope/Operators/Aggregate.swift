extension Signal {
    /// Combines every value into `initial` and sends only the final result, when this
    /// signal completes (RAC `aggregateWithStart:reduce:`); sends `initial` if there were
    /// no values. An error fails it without a result.
    public func aggregate<Result>(
        _ initial: Result,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        _ reduce: @escaping (Result, Value) -> Result
    ) -> Signal<Result> {
        let site = SourceLocation(file, line, function)
        return aggregateStage("aggregate", initial, site, keeping: [KeptClosure(.reducer, site, reduce)]) { $0 = reduce($0, $1) }
    }

    /// The stage behind `aggregate` and `collect`: folds values into `initial` in place.
    func aggregateStage<Result>(
        _ name: String, _ initial: Result, _ site: SourceLocation, keeping closures: [KeptClosure] = [],
        _ fold: @escaping (inout Result, Value) -> Void
    ) -> Signal<Result> {
        Signal<Result>(operator: name, parents: [dataEdge], site: site, keeping: closures) { subscriber in
            var result = initial
            self.forward(
                to: subscriber, site: site,
                next: { fold(&result, $0) },
                completed: {
                    subscriber.sendNext(result)
                    subscriber.sendCompleted()
                })
            return nil
        }
    }
}
