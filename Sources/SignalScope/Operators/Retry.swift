extension Signal {
    /// Subscribes again each time this signal fails, for ever (RAC `retry`).
    public func retry(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Value> {
        retryStage(.max, SourceLocation(file, line, function))
    }

    /// Subscribes again when this signal fails, up to `count` times; the error after the
    /// last retry fails the result (RAC `retry:`).
    ///
    /// As in RAC 2, `retry(0)` sets no limit: it retries until the signal completes, like
    /// `retry()`, so code ported from RAC means what it meant there.
    public func retry(
        _ count: Int,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Value> {
        Require.nonNegative(count, "retry(_:) count")
        return retryStage(count == 0 ? .max : count, SourceLocation(file, line, function))
    }

    private func retryStage(_ count: Int, _ site: SourceLocation) -> Signal<Value> {
        Signal(operator: "retry", parents: [dataEdge], site: site) { subscriber in
            let attempt = SerialDisposable()
            subscriber.add(attempt)
            var remaining = count
            // A signal that fails while being subscribed would otherwise retry recursively;
            // the trampoline turns that into a loop.
            let attempts = Locked(Trampoline<Void>())
            func subscribeAgain() {
                guard attempts.withLock({ $0.enter(()) }) else { return }
                repeat {
                    subscriber.makingSubscriptions {
                        self.subscribe(
                            Observer(
                                next: { subscriber.sendNext($0) },
                                error: { error in
                                    guard remaining > 0 else { return subscriber.sendError(error) }
                                    remaining -= 1
                                    subscribeAgain()
                                },
                                completed: { subscriber.sendCompleted() }),
                            site: site, owner: subscriber.disposable, hold: { attempt.inner = $0 })
                    }
                } while attempts.withLock({ $0.next() }) != nil
            }
            subscribeAgain()
            return nil
        }
    }
}
