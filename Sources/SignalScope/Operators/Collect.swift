extension Signal {
    /// Sends all values as one array when this signal completes (RAC `collect`); an empty
    /// array if there were none. An error fails it without a result.
    public func collect(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<[Value]> {
        aggregateStage("collect", [], SourceLocation(file, line, function)) { $0.append($1) }
    }
}
