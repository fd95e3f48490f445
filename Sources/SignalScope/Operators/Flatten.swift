extension Signal {
    /// Maps every value to a signal and merges them all: values arrive as any inner signal
    /// sends them (RAC `flattenMap:`). Completes when the source and every inner signal have
    /// completed; the first error from any of them fails it. Disposing it disposes them all.
    public func flattenMap<Output>(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        _ transform: @escaping (Value) -> Signal<Output>
    ) -> Signal<Output> {
        mergeStage("flattenMap", maxConcurrent: .max, site: SourceLocation(file, line, function), transform)
    }
}

extension Signal where Value: SignalProtocol {
    /// Merges the inner signals this signal sends (RAC `flatten`). Completes when this
    /// signal and every inner signal have completed; any error fails it.
    public func flatten(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Value.Element> {
        mergeStage("flatten", maxConcurrent: .max, site: SourceLocation(file, line, function)) { $0.asSignal }
    }

    /// Subscribes to the inner signals one after another, each once the previous one has
    /// completed, queueing those that arrive meanwhile (RAC `concat` of a signal of signals).
    public func concat(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Value.Element> {
        mergeStage("concat", maxConcurrent: 1, site: SourceLocation(file, line, function)) { $0.asSignal }
    }
}
