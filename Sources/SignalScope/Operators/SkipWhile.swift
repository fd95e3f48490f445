extension Signal {
    /// Drops values while `predicate` holds, then forwards the first value for which it
    /// does not and everything after it (RAC `skipWhileBlock:`).
    public func skipWhile(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        _ predicate: @escaping (Value) -> Bool
    ) -> Signal<Value> {
        let site = SourceLocation(file, line, function)
        return Signal(operator: "skipWhile", parents: [dataEdge], site: site, keeping: [KeptClosure(.predicate, site, predicate)]) {
            subscriber in
            var skipping = true
            self.forward(to: subscriber, site: site) { value in
                if skipping { skipping = predicate(value) }
                if !skipping { subscriber.sendNext(value) }
            }
            return nil
        }
    }
}
