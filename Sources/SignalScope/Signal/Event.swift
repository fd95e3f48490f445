/// One event of a signal. A signal sends `next* (error | completed)?`.
public enum Event<Value> {
    /// A value.
    case next(Value)
    /// Failure; ends the signal.
    case error(any Error)
    /// Success; ends the signal.
    case completed

    /// Whether this event ends the signal (`error` or `completed`).
    public var isTerminal: Bool {
        if case .next = self { return false }
        return true
    }

    /// The value of a `next` event.
    public var value: Value? {
        if case .next(let value) = self { return value }
        return nil
    }

    /// The error of an `error` event.
    public var error: (any Error)? {
        if case .error(let error) = self { return error }
        return nil
    }
}

extension Event: Sendable where Value: Sendable {}

extension Event: CustomStringConvertible {
    public var description: String {
        switch self {
        case .next(let value): "next(\(value))"
        case .error(let error): "error(\(error))"
        case .completed: "completed"
        }
    }
}
