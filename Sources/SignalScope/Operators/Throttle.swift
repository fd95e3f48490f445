import Foundation

extension Signal {
    /// Sends a value only once `interval` seconds have passed without a newer one (RAC
    /// `throttle:`, what other libraries call debounce): a burst of values yields its last.
    /// On completion a value still waiting is sent at once, then completion; an error
    /// drops it.
    public func throttle(
        _ interval: TimeInterval, on scheduler: any Scheduler,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Value> {
        Require.nonNegative(interval, "throttle(_:on:) interval")
        let site = SourceLocation(file, line, function)
        return Signal(operator: "throttle", parents: [dataEdge], site: site) { subscriber in
            let waiting = Locked(ThrottleState())
            let timer = SerialDisposable()
            subscriber.add(timer)
            let takeWaiting: (Int?) -> Value? = { generation in
                waiting.withLock { $0.take(generation: generation) } as! Value?
            }
            self.forward(
                to: subscriber, site: site,
                next: { value in
                    let generation = waiting.withLock { $0.hold(value) }
                    timer.inner = scheduler.schedule(after: scheduler.now.addingTimeInterval(interval)) {
                        if let value = takeWaiting(generation) { subscriber.sendNext(value) }
                    }
                },
                error: { error in
                    timer.dispose()
                    subscriber.sendError(error)
                },
                completed: {
                    timer.dispose()
                    if let value = takeWaiting(nil) { subscriber.sendNext(value) }
                    subscriber.sendCompleted()
                })
            return nil
        }
    }
}

/// The value a throttle holds back, boxed so the per-value lock needs no generic metadata.
struct ThrottleState {
    private var value: Any?
    private var generation = 0

    /// Holds `value` in place of any earlier one; returns its generation.
    mutating func hold(_ value: Any) -> Int {
        self.value = value
        generation += 1
        return generation
    }

    /// Takes the held value if it is still the one of `generation` (any, when `nil`).
    mutating func take(generation: Int?) -> Any? {
        guard generation == nil || generation == self.generation else { return nil }
        defer { value = nil }
        return value
    }
}
