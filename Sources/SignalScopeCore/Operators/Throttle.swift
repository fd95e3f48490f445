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
            let waiting = Locked<(value: Value?, generation: Int)>((nil, 0))
            let timer = SerialDisposable()
            subscriber.add(timer)
            let takeWaiting: (Int?) -> Value? = { generation in
                waiting.withLock { state in
                    guard generation == nil || generation == state.generation else { return nil }
                    defer { state.value = nil }
                    return state.value
                }
            }
            return self.forward(
                to: subscriber, site: site,
                next: { value in
                    let generation = waiting.withLock { state in
                        state.value = value
                        state.generation += 1
                        return state.generation
                    }
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
        }
    }
}
