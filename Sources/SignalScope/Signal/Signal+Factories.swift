extension Signal {
    /// A signal that sends `value`, then completes (RAC `+return:`).
    public static func just(
        _ value: Value,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Value> {
        Signal(
            kind: .signal, name: "just", site: SourceLocation(fileID: file, line: line, function: function)
        ) { subscriber in
            subscriber.sendNext(value)
            subscriber.sendCompleted()
            return nil
        }
    }

    /// A signal that completes at once, sending nothing (RAC `+empty`).
    ///
    /// A function rather than a property so that the node records the line that made it,
    /// as every node a user creates does.
    public static func empty(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Value> {
        Signal(kind: .signal, name: "empty", site: SourceLocation(fileID: file, line: line, function: function)) {
            subscriber in
            subscriber.sendCompleted()
            return nil
        }
    }

    /// A signal that never sends anything, not even a terminal event (RAC `+never`).
    /// Its subscriptions live until they are disposed.
    public static func never(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Value> {
        Signal(kind: .signal, name: "never", site: SourceLocation(fileID: file, line: line, function: function)) {
            _ in nil
        }
    }

    /// A signal that fails at once with `error` (RAC `+error:`).
    public static func error(
        _ error: any Error,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Value> {
        Signal(
            kind: .signal, name: "error", site: SourceLocation(fileID: file, line: line, function: function)
        ) { subscriber in
            subscriber.sendError(error)
            return nil
        }
    }
}
