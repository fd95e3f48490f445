extension Signal {
    /// Sends the values of all `signals` as they arrive (RAC `+merge:`). Completes when all
    /// have completed (at once for an empty array); the first error fails it.
    public static func merge(
        _ signals: [Signal<Value>],
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Value> {
        mergeStage("merge", signals, maxConcurrent: .max, site: SourceLocation(file, line, function))
    }

    /// Sends the values of this signal and `other` as they arrive (RAC `merge:`).
    public func merge(
        _ other: Signal<Value>,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Value> {
        Signal.mergeStage("merge", [self, other], maxConcurrent: .max, site: SourceLocation(file, line, function))
    }
}
