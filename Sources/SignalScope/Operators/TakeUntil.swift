extension Signal {
    /// Forwards this signal until `trigger` sends a value or completes, then completes and
    /// disposes both subscriptions (RAC `takeUntil:`). An error from `trigger` is ignored.
    ///
    /// The usual way to end a subscription with its owner:
    /// `signal.takeUntil(lifetime.ended)` or `button.taps.takeUntil(cell.prepareForReuse)`.
    public func takeUntil<Trigger>(
        _ trigger: Signal<Trigger>,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Value> {
        let site = SourceLocation(file, line, function)
        return Signal(operator: "takeUntil", traits: .bounding, parents: [dataEdge, trigger.controlEdge], site: site) { subscriber in
            // If the trigger ends the result while being subscribed, this signal is never
            // subscribed (semantics rule O38).
            trigger.forward(
                to: subscriber, site: site,
                next: { _ in subscriber.sendCompleted() },
                error: { _ in },
                completed: { subscriber.sendCompleted() })
            self.forwardAll(to: subscriber, site: site)
            return nil
        }
    }
}
