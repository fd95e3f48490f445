extension Signal {
    /// Prints every event this signal sends, prefixed with `label` (RAC `logAll`).
    ///
    /// - Parameter output: Where lines go; standard output by default.
    public func log(
        _ label: String = "",
        to output: @escaping (String) -> Void = { print($0) },
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Value> {
        let prefix = label.isEmpty ? "" : "\(label) "
        return sideEffectStage(
            "log", SourceLocation(file, line, function),
            next: { output("\(prefix)next(\($0))") },
            error: { output("\(prefix)error(\($0))") },
            completed: { output("\(prefix)completed") })
    }
}
