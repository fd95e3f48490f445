extension Signal where Value: Equatable {
    /// Drops each value equal to the one sent just before it (RAC `distinctUntilChanged`).
    public func distinctUntilChanged(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Value> {
        let site = SourceLocation(file, line, function)
        return Signal(operator: "distinctUntilChanged", parents: [dataEdge], site: site) { subscriber in
            var previous: Value?
            self.forward(to: subscriber, site: site) { value in
                guard value != previous else { return }
                previous = value
                subscriber.sendNext(value)
            }
            return nil
        }
    }
}
