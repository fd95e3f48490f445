extension Signal {
    /// Sends this signal's latest value each time `trigger` sends a value, once this signal
    /// has sent one (RAC `-sample:`); the same value again if nothing newer arrived.
    /// Completes when either completes, and fails when either fails.
    ///
    /// ```swift
    /// // The text field's contents, when the button is tapped.
    /// let submitted = viewModel.query.signal.sample(on: button.taps)
    /// ```
    public func sample<Trigger>(
        on trigger: Signal<Trigger>,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Value> {
        let site = SourceLocation(file, line, function)
        return Signal(operator: "sample", parents: [dataEdge, trigger.controlEdge], site: site) { subscriber in
            // The two subscriptions deliver on their own threads: the latest value is shared.
            let latest = Locked<Value?>(nil)
            // As RAC 2 does, this signal first, so that a value it sends synchronously is
            // there for the trigger's first event.
            self.forward(to: subscriber, site: site) { value in latest.withLock { $0 = value } }
            trigger.forward(to: subscriber, site: site) { _ in
                if let value = latest.withLock({ $0 }) { subscriber.sendNext(value) }
            }
            return nil
        }
    }
}
