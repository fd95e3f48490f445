extension Signal {
    /// Sends the latest value of each input whenever any of them sends, once both have sent
    /// at least one (RAC `+combineLatest:`); reduce with `map`. Completes when both have
    /// completed; an error fails it.
    public static func combineLatest<A, B>(
        _ a: Signal<A>, _ b: Signal<B>,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<(A, B)> where Value == (A, B) {
        combineLatestStage([a.combinedInput, b.combinedInput], SourceLocation(file, line, function)) {
            ($0[0] as! A, $0[1] as! B)
        }
    }

    /// ``combineLatest(_:_:)`` for 3 inputs of their own types.
    public static func combineLatest<A, B, C>(
        _ a: Signal<A>, _ b: Signal<B>, _ c: Signal<C>,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<(A, B, C)> where Value == (A, B, C) {
        combineLatestStage([a.combinedInput, b.combinedInput, c.combinedInput], SourceLocation(file, line, function)) {
            ($0[0] as! A, $0[1] as! B, $0[2] as! C)
        }
    }

    /// ``combineLatest(_:_:)`` for 4 inputs of their own types.
    public static func combineLatest<A, B, C, D>(
        _ a: Signal<A>, _ b: Signal<B>, _ c: Signal<C>, _ d: Signal<D>,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<(A, B, C, D)> where Value == (A, B, C, D) {
        combineLatestStage([a.combinedInput, b.combinedInput, c.combinedInput, d.combinedInput], SourceLocation(file, line, function)) {
            ($0[0] as! A, $0[1] as! B, $0[2] as! C, $0[3] as! D)
        }
    }

    /// ``combineLatest(_:_:)`` for 5 inputs of their own types.
    public static func combineLatest<A, B, C, D, E>(
        _ a: Signal<A>, _ b: Signal<B>, _ c: Signal<C>, _ d: Signal<D>, _ e: Signal<E>,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<(A, B, C, D, E)> where Value == (A, B, C, D, E) {
        combineLatestStage([a.combinedInput, b.combinedInput, c.combinedInput, d.combinedInput, e.combinedInput], SourceLocation(file, line, function)) {
            ($0[0] as! A, $0[1] as! B, $0[2] as! C, $0[3] as! D, $0[4] as! E)
        }
    }

    /// ``combineLatest(_:_:)`` for 6 inputs of their own types.
    public static func combineLatest<A, B, C, D, E, F>(
        _ a: Signal<A>, _ b: Signal<B>, _ c: Signal<C>, _ d: Signal<D>, _ e: Signal<E>, _ f: Signal<F>,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<(A, B, C, D, E, F)> where Value == (A, B, C, D, E, F) {
        combineLatestStage([a.combinedInput, b.combinedInput, c.combinedInput, d.combinedInput, e.combinedInput, f.combinedInput], SourceLocation(file, line, function)) {
            ($0[0] as! A, $0[1] as! B, $0[2] as! C, $0[3] as! D, $0[4] as! E, $0[5] as! F)
        }
    }

    /// Sends an array of the latest value of every input whenever any of them sends, once
    /// all have sent at least one (RAC `+combineLatest:`); completes at once for an empty
    /// array.
    public static func combineLatest<Element>(
        _ signals: [Signal<Element>],
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<[Element]> where Value == [Element] {
        combineLatestStage(signals.map(\.combinedInput), SourceLocation(file, line, function)) {
            $0.map { $0 as! Element }
        }
    }

    private static func combineLatestStage(
        _ inputs: [CombinedInput], _ site: SourceLocation, _ combine: @escaping ([Any]) -> Value
    ) -> Signal<Value> {
        Signal(operator: "combineLatest", parents: inputs.map(\.edge), site: site) { subscriber in
            guard !inputs.isEmpty else {
                subscriber.sendCompleted()
                return nil
            }
            let state = Locked(CombineLatestState(inputCount: inputs.count))
            subscribe(
                inputs, for: subscriber, site: site,
                next: { index, value in
                    if let row = state.withLock({ $0.update(index, with: value) }) {
                        subscriber.sendNext(combine(row))
                    }
                },
                completed: { index in
                    if state.withLock({ $0.complete(index) }) { subscriber.sendCompleted() }
                })
            return nil
        }
    }
}

/// The latest value of each input.
private struct CombineLatestState {
    var latest: [Any?]
    var missing: Int
    var active: Int

    init(inputCount: Int) {
        latest = Array(repeating: nil, count: inputCount)
        missing = inputCount
        active = inputCount
    }

    /// Records `value`; returns the row to send once every input has a value.
    mutating func update(_ index: Int, with value: Any) -> [Any]? {
        if latest[index] == nil { missing -= 1 }
        latest[index] = .some(value)
        return missing == 0 ? latest.map { $0! } : nil
    }

    /// Returns whether every input has now completed.
    mutating func complete(_ index: Int) -> Bool {
        active -= 1
        return active == 0
    }
}
