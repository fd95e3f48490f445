extension Signal {
    /// Sends this signal's values, then, once it completes, `other`'s (RAC `concat:`).
    /// `other` is subscribed only after this signal completes; an error from this signal
    /// fails the result without subscribing to `other`.
    public func concat(
        _ other: Signal<Value>,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Value> {
        Signal.mergeStage("concat", [self, other], maxConcurrent: 1, site: SourceLocation(file, line, function))
    }
}
