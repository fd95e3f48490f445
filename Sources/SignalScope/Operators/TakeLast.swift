import DequeModule

extension Signal {
    /// Sends the last `count` values once this signal completes, then completes (RAC
    /// `takeLast:`). An error fails it without sending them.
    public func takeLast(
        _ count: Int,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Value> {
        Require.nonNegative(count, "takeLast(_:) count")
        let site = SourceLocation(file, line, function)
        return Signal(operator: "takeLast", parents: [dataEdge], site: site) { subscriber in
            var last = Deque<Value>()
            self.forward(
                to: subscriber, site: site,
                next: { value in
                    guard count > 0 else { return }
                    if last.count == count { last.removeFirst() }
                    last.append(value)
                },
                completed: {
                    for value in last { subscriber.sendNext(value) }
                    subscriber.sendCompleted()
                })
            return nil
        }
    }
}
