extension Signal {
    /// Drops the first `count` values, then forwards the rest (RAC `skip:`).
    public func skip(
        _ count: Int,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Value> {
        Require.nonNegative(count, "skip(_:) count")
        return skipStage(count, "skip", SourceLocation(file, line, function))
    }

    /// The stage behind `skip` and a property's `changes` (which skips the current value).
    func skipStage(_ count: Int, _ name: String, _ site: SourceLocation) -> Signal<Value> {
        Signal(operator: name, parents: [dataEdge], site: site) { subscriber in
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
