extension Signal {
    /// Sends every event on `scheduler`, in order (RAC `deliverOn:`): the way to get back to
    /// the main queue before touching the UI. Disposing cancels events not yet delivered.
    public func deliver(
        on scheduler: any Scheduler,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Value> {
        let site = SourceLocation(file, line, function)
        return Signal(operator: "deliverOn", parents: [dataEdge], site: site) { subscriber in
            let actions = ScheduledActions()
            subscriber.add(actions.pending)
            self.forward(
                to: subscriber, site: site,
                next: { value in actions.schedule(on: scheduler) { subscriber.sendNext(value) } },
                error: { error in actions.schedule(on: scheduler) { subscriber.sendError(error) } },
                completed: { actions.schedule(on: scheduler) { subscriber.sendCompleted() } })
            return nil
        }
    }
}
