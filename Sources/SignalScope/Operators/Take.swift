extension Signal {
    /// Sends the first `count` values, then completes and disposes the source subscription
    /// (RAC `take:`). With `count` 0 it completes at once without subscribing.
    public func take(
        _ count: Int,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Value> {
        Require.nonNegative(count, "take(_:) count")
        let site = SourceLocation(file, line, function)
        return Signal(operator: "take", traits: .bounding, parents: [dataEdge], site: site) { subscriber in
            guard count > 0 else {
                subscriber.sendCompleted()
                return nil
            }
            var taken = 0  // observer closures never run concurrently (rule C1)
            self.forward(to: subscriber, site: site) { value in
                taken += 1
                subscriber.sendNext(value)
                if taken == count { subscriber.sendCompleted() }
            }
            return nil
        }
    }
}
