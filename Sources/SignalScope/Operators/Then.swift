extension Signal {
    /// Ignores this signal's values and, once it completes, forwards the signal `next`
    /// returns (RAC `then:`). `next` runs at completion, once per subscription; an error
    /// from this signal fails the result without calling it.
    public func then<Output>(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        _ next: @escaping () -> Signal<Output>
    ) -> Signal<Output> {
        let site = SourceLocation(file, line, function)
        return Signal<Output>(operator: "then", parents: [dataEdge], site: site, keeping: [KeptClosure(.factory, site, next)]) {
            subscriber in
            self.forward(
                to: subscriber, site: site, next: { _ in },
                completed: {
                    let following = next()
                    subscriber.reportEdge(from: following.id, kind: .data)
                    subscriber.makingSubscriptions { following.forwardAll(to: subscriber, site: site) }
                })
            return nil
        }
    }
}
