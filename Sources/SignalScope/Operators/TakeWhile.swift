extension Signal {
    /// Forwards values while `predicate` holds; at the first value for which it does not,
    /// completes (without sending that value) and disposes the source subscription (RAC
    /// `takeWhileBlock:`).
    public func takeWhile(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        _ predicate: @escaping (Value) -> Bool
    ) -> Signal<Value> {
        let site = SourceLocation(file, line, function)
        return Signal(operator: "takeWhile", traits: .bounding, parents: [dataEdge], site: site, keeping: [KeptClosure(.predicate, site, predicate)]) {
            subscriber in
            self.forward(to: subscriber, site: site) { value in
                if predicate(value) {
                    subscriber.sendNext(value)
                } else {
                    subscriber.sendCompleted()
                }
            }
            return nil
        }
    }
}
