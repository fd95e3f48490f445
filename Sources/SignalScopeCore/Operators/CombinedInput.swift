/// One input of `zip` or `combineLatest`, with its value type erased so that inputs of
/// different types can share one engine; the typed APIs cast the combined row back.
struct CombinedInput {
    let edge: NodeEdge
    let subscribe: (Observer<Any>, SourceLocation) -> Disposable
}

extension Signal {
    var combinedInput: CombinedInput {
        CombinedInput(edge: dataEdge) { observer, site in
            self.subscribe(
                Observer(next: { observer.next?($0) }, error: observer.error, completed: observer.completed),
                site: site)
        }
    }

    /// Subscribes to every input on behalf of `subscriber`, calling `next(index, value)`,
    /// `completed(index)`, and failing `subscriber` on the first error.
    static func subscribe(
        _ inputs: [CombinedInput], for subscriber: Subscriber<Value>, site: SourceLocation,
        next: @escaping (Int, Any) -> Void, completed: @escaping (Int) -> Void
    ) -> Disposable {
        let all = CompoundDisposable()
        for (index, input) in inputs.enumerated() {
            all.add(input.subscribe(
                Observer(
                    next: { next(index, $0) },
                    error: { subscriber.sendError($0) },
                    completed: { completed(index) }),
                site))
        }
        return all
    }
}
