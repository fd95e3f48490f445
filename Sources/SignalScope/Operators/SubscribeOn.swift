extension Signal {
    /// Subscribes to this signal, and so runs its creation block and side effects, on
    /// `scheduler` (RAC `subscribeOn:`); events are then sent from wherever the signal
    /// sends them. Disposing before the subscription has started cancels it.
    public func subscribe(
        on scheduler: any Scheduler,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Value> {
        let site = SourceLocation(file, line, function)
        return Signal(operator: "subscribeOn", parents: [dataEdge], site: site) { subscriber in
            scheduler.schedule { self.forwardAll(to: subscriber, site: site) }
        }
    }
}
