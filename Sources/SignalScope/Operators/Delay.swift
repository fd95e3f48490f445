import Foundation

extension Signal {
    /// Sends each value, and completion, `interval` seconds after this signal sends it, on
    /// `scheduler` (RAC `delay:`). Errors pass through at once.
    public func delay(
        _ interval: TimeInterval, on scheduler: any Scheduler,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Value> {
        Require.nonNegative(interval, "delay(_:on:) interval")
        let site = SourceLocation(file, line, function)
        return Signal(operator: "delay", parents: [dataEdge], site: site) { subscriber in
            let actions = ScheduledActions()
            subscriber.add(actions.pending)
            self.forward(
                to: subscriber, site: site,
                next: { value in actions.schedule(on: scheduler, after: interval) { subscriber.sendNext(value) } },
                completed: { actions.schedule(on: scheduler, after: interval) { subscriber.sendCompleted() } })
            return nil
        }
    }
}
