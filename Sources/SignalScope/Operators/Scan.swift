extension Signal {
    /// Sends the running result of combining every value into `initial` (RAC
    /// `scanWithStart:reduce:`): `reduce(reduce(initial, v1), v2)`, and so on. Each
    /// subscription starts again from `initial`.
    public func scan<Result>(
        _ initial: Result,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        _ reduce: @escaping (Result, Value) -> Result
    ) -> Signal<Result> {
        let site = SourceLocation(file, line, function)
        return Signal<Result>(operator: "scan", parents: [dataEdge], site: site, keeping: [KeptClosure(.reducer, site, reduce)]) {
            subscriber in
            var running = initial
            self.forward(to: subscriber, site: site) { value in
                running = reduce(running, value)
                subscriber.sendNext(running)
            }
            return nil
        }
    }
}
