extension Signal {
    /// Sends `value` first, then everything this signal sends (RAC `startWith:`).
    public func startWith(
        _ value: Value,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Value> {
        let site = SourceLocation(file, line, function)
        return Signal(operator: "startWith", parents: [dataEdge], site: site) { subscriber in
            subscriber.sendNext(value)
            self.forwardAll(to: subscriber, site: site)
            return nil
        }
    }
}
