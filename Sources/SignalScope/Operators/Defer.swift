extension Signal {
    /// Calls `make` anew for every subscription and forwards the signal it returns (RAC
    /// `+defer:`): work that must not start before someone subscribes.
    public static func `defer`(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        _ make: @escaping () -> Signal<Value>
    ) -> Signal<Value> {
        let site = SourceLocation(file, line, function)
        return Signal(
            kind: .signal, name: "defer", traits: .cold, site: site,
            didSubscribe: { subscriber in
                let signal = make()
                subscriber.reportEdge(from: signal.id, kind: .data)
                signal.forwardAll(to: subscriber, site: site)
                return nil
            },
            keeping: [KeptClosure(.factory, site, make)])
    }
}
