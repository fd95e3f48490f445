extension Signal {
    /// The general primitive behind RAC's operators (RAC `bind:`).
    ///
    /// For every subscription, `makeBinder` is called once to get a binder. Each value is
    /// passed to the binder, which returns a signal to merge into the result, or `nil`. When
    /// the binder returns `nil` or sets its `stop` argument to `true`, this signal's
    /// subscription is disposed and no more values are taken; the result completes once the
    /// signals it returned have all completed. Any error fails the result.
    public func bind<Output>(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        _ makeBinder: @escaping () -> (Value, inout Bool) -> Signal<Output>?
    ) -> Signal<Output> {
        let site = SourceLocation(file, line, function)
        return Signal<Output>(operator: "bind", parents: [dataEdge], site: site, keeping: [KeptClosure(.binder, site, makeBinder)]) {
            subscriber in
            let binder = makeBinder()
            let coordinator = MergeCoordinator(downstream: subscriber, maxConcurrent: .max, site: site)
            let source = SerialDisposable()
            subscriber.add(source)
            self.subscribe(
                Observer(
                    next: { value in
                        var stop = false
                        let signal = binder(value, &stop)
                        if let signal { coordinator.add(signal) }
                        if signal == nil || stop {
                            source.dispose()
                            coordinator.outerCompleted()
                        }
                    },
                    error: { subscriber.sendError($0) },
                    completed: { coordinator.outerCompleted() }),
                site: site, owner: subscriber.disposable, hold: { source.inner = $0 })
            return nil
        }
    }
}
