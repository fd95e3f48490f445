extension Signal {
    /// Drops the first `count` values, then forwards the rest (RAC `skip:`).
    public func skip(
        _ count: Int,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Value> {
        Require.nonNegative(count, "skip(_:) count")
        let site = SourceLocation(file, line, function)
        return Signal(operator: "skip", parents: [dataEdge], site: site) { subscriber in
            var skipped = 0
            self.forward(to: subscriber, site: site) { value in
                if skipped < count {
                    skipped += 1
                } else {
                    subscriber.sendNext(value)
                }
            }
            return nil
        }
    }
}
