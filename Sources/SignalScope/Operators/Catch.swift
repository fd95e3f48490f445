extension Signal {
    /// On error, switches to the signal `handler` returns for that error (RAC `catch:`):
    /// the way to recover, or to refresh a token and try again. Values and completion pass
    /// through unchanged.
    public func `catch`(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        _ handler: @escaping (any Error) -> Signal<Value>
    ) -> Signal<Value> {
        catchStage("catch", [dataEdge], SourceLocation(file, line, function), handler)
    }

    /// On error, switches to `replacement` (RAC `catchTo:`).
    public func catchTo(
        _ replacement: Signal<Value>,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Value> {
        catchStage("catchTo", [dataEdge, replacement.dataEdge], SourceLocation(file, line, function)) { _ in
            replacement
        }
    }

    private func catchStage(
        _ name: String, _ parents: [NodeEdge], _ site: SourceLocation,
        _ handler: @escaping (any Error) -> Signal<Value>
    ) -> Signal<Value> {
        Signal(operator: name, parents: parents, site: site, keeping: [KeptClosure(.handler, site, handler)]) { subscriber in
            self.forward(
                to: subscriber, site: site,
                next: { subscriber.sendNext($0) },
                error: { error in
                    let recovery = handler(error)
                    subscriber.reportEdge(from: recovery.id, kind: .data)
                    subscriber.makingSubscriptions { recovery.forwardAll(to: subscriber, site: site) }
                })
            return nil
        }
    }
}
