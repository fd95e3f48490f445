extension Signal {
    /// Sends only the values for which `isIncluded` returns `true` (RAC `filter:`).
    public func filter(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        _ isIncluded: @escaping (Value) -> Bool
    ) -> Signal<Value> {
        filterStage("filter", SourceLocation(file, line, function), isIncluded)
    }

    /// Sends no values, only the terminal event (RAC `ignoreValues`).
    public func ignoreValues(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Value> {
        filterStage("ignoreValues", SourceLocation(file, line, function)) { _ in false }
    }

    func filterStage(
        _ name: String, _ site: SourceLocation, _ isIncluded: @escaping (Value) -> Bool
    ) -> Signal<Value> {
        Signal(operator: name, parents: [dataEdge], site: site, keeping: [KeptClosure(.predicate, site, isIncluded)]) {
            subscriber in
            self.forward(to: subscriber, site: site) { if isIncluded($0) { subscriber.sendNext($0) } }
            return nil
        }
    }
}

extension Signal where Value: Equatable {
    /// Sends every value except those equal to `value` (RAC `ignore:`).
    public func ignore(
        _ value: Value,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Value> {
        filterStage("ignore", SourceLocation(file, line, function)) { $0 != value }
    }
}
