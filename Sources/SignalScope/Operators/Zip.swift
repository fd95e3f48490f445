import DequeModule

extension Signal {
    /// Pairs the values of `a` and `b` in order: the first of each, then the second of
    /// each, and so on (RAC `+zip:`), replacing a dispatch group. Completes as soon as one
    /// input has completed and every value it sent has been paired; an error fails it.
    public static func zip<A, B>(
        _ a: Signal<A>, _ b: Signal<B>,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<(A, B)> where Value == (A, B) {
        zipStage([a.combinedInput, b.combinedInput], SourceLocation(file, line, function)) {
            ($0[0] as! A, $0[1] as! B)
        }
    }

    /// ``zip(_:_:)`` for 3 inputs of their own types.
    public static func zip<A, B, C>(
        _ a: Signal<A>, _ b: Signal<B>, _ c: Signal<C>,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<(A, B, C)> where Value == (A, B, C) {
        zipStage([a.combinedInput, b.combinedInput, c.combinedInput], SourceLocation(file, line, function)) {
            ($0[0] as! A, $0[1] as! B, $0[2] as! C)
        }
    }

    /// ``zip(_:_:)`` for 4 inputs of their own types.
    public static func zip<A, B, C, D>(
        _ a: Signal<A>, _ b: Signal<B>, _ c: Signal<C>, _ d: Signal<D>,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<(A, B, C, D)> where Value == (A, B, C, D) {
        zipStage([a.combinedInput, b.combinedInput, c.combinedInput, d.combinedInput], SourceLocation(file, line, function)) {
            ($0[0] as! A, $0[1] as! B, $0[2] as! C, $0[3] as! D)
        }
    }

    /// ``zip(_:_:)`` for 5 inputs of their own types.
    public static func zip<A, B, C, D, E>(
        _ a: Signal<A>, _ b: Signal<B>, _ c: Signal<C>, _ d: Signal<D>, _ e: Signal<E>,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<(A, B, C, D, E)> where Value == (A, B, C, D, E) {
        zipStage([a.combinedInput, b.combinedInput, c.combinedInput, d.combinedInput, e.combinedInput], SourceLocation(file, line, function)) {
            ($0[0] as! A, $0[1] as! B, $0[2] as! C, $0[3] as! D, $0[4] as! E)
        }
    }

    /// ``zip(_:_:)`` for 6 inputs of their own types.
    public static func zip<A, B, C, D, E, F>(
        _ a: Signal<A>, _ b: Signal<B>, _ c: Signal<C>, _ d: Signal<D>, _ e: Signal<E>, _ f: Signal<F>,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<(A, B, C, D, E, F)> where Value == (A, B, C, D, E, F) {
        zipStage([a.combinedInput, b.combinedInput, c.combinedInput, d.combinedInput, e.combinedInput, f.combinedInput], SourceLocation(file, line, function)) {
            ($0[0] as! A, $0[1] as! B, $0[2] as! C, $0[3] as! D, $0[4] as! E, $0[5] as! F)
        }
    }

    /// Combines the values of all `signals` in order into arrays (RAC `+zip:`); completes
    /// at once for an empty array.
    public static func zip<Element>(
        _ signals: [Signal<Element>],
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<[Element]> where Value == [Element] {
        zipStage(signals.map(\.combinedInput), SourceLocation(file, line, function)) {
            $0.map { $0 as! Element }
        }
    }

    /// Pairs this signal's values with `other`'s in order (RAC `zipWith:`).
    public func zip<Other>(
        with other: Signal<Other>,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<(Value, Other)> {
        Signal<(Value, Other)>.zip(self, other, file: file, line: line, function: function)
    }

    private static func zipStage(
        _ inputs: [CombinedInput], _ site: SourceLocation, _ combine: @escaping ([Any]) -> Value
    ) -> Signal<Value> {
        Signal(operator: "zip", parents: inputs.map(\.edge), site: site) { subscriber in
            guard !inputs.isEmpty else {
                subscriber.sendCompleted()
                return nil
            }
            let state = Locked(ZipState(inputCount: inputs.count))
            subscribe(
                inputs, for: subscriber, site: site,
                next: { index, value in
                    let (row, done) = state.withLock { $0.append(value, at: index) }
                    if let row { subscriber.sendNext(combine(row)) }
                    if done { subscriber.sendCompleted() }
                },
                completed: { index in
                    if state.withLock({ $0.complete(index) }) { subscriber.sendCompleted() }
                })
            return nil
        }
    }
}

/// The queues of values waiting to be paired, one per input.
private struct ZipState {
    var queues: [Deque<Any>]
    var completed: [Bool]

    init(inputCount: Int) {
        queues = Array(repeating: [], count: inputCount)
        completed = Array(repeating: false, count: inputCount)
    }

    /// Queues `value`; returns a full row if every input now has one, and whether the
    /// result is finished (a completed input has nothing left to pair).
    mutating func append(_ value: Any, at index: Int) -> (row: [Any]?, done: Bool) {
        queues[index].append(value)
        guard queues.allSatisfy({ !$0.isEmpty }) else { return (nil, false) }
        let row = queues.indices.map { queues[$0].removeFirst() }
        return (row, isExhausted)
    }

    mutating func complete(_ index: Int) -> Bool {
        completed[index] = true
        return isExhausted
    }

    private var isExhausted: Bool {
        queues.indices.contains { completed[$0] && queues[$0].isEmpty }
    }
}
