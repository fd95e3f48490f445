/// One input of `zip` or `combineLatest`, with its value type erased so that inputs of
/// different types can share one engine; the typed APIs cast the combined row back.
struct CombinedInput {
    let edge: NodeEdge
    /// Subscribes on behalf of the downstream subscription whose disposable is `owner`
    /// (see `Signal.subscribe(_:site:owner:hold:)`).
    let subscribe: (Observer<Any>, SourceLocation, _ owner: Disposable, _ hold: (Disposable) -> Void) -> Void
}

extension Signal {
    var combinedInput: CombinedInput {
        CombinedInput(edge: dataEdge) { observer, site, owner, hold in
            self.subscribe(
                Observer(next: { observer.next?($0) }, error: observer.error, completed: observer.completed),
                site: site, owner: owner, hold: hold)
        }
    }

    /// Subscribes to every input on behalf of `subscriber`, calling `next(index, value)`,
    /// `completed(index)`, and failing `subscriber` on the first error. Once `subscriber`
    /// has ended, the inputs left are not subscribed.
    static func subscribe(
        _ inputs: [CombinedInput], for subscriber: Subscriber<Value>, site: SourceLocation,
        next: @escaping (Int, Any) -> Void, completed: @escaping (Int) -> Void
    ) {
        for (index, input) in inputs.enumerated() {
            input.subscribe(
                Observer(
                    next: { next(index, $0) },
                    error: { subscriber.sendError($0) },
                    completed: { completed(index) }),
                site, subscriber.disposable, { subscriber.add($0) })
        }
    }
}
