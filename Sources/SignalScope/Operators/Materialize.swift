extension Signal {
    /// Sends every event as a value, including the terminal one, then completes (RAC
    /// `materialize`).
    public func materialize(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Event<Value>> {
        let site = SourceLocation(file, line, function)
        return Signal<Event<Value>>(operator: "materialize", parents: [dataEdge], site: site) { subscriber in
            self.forward(
                to: subscriber, site: site,
                next: { subscriber.sendNext(.next($0)) },
                error: { error in
                    subscriber.sendNext(.error(error))
                    subscriber.sendCompleted()
                },
                completed: {
                    subscriber.sendNext(.completed)
                    subscriber.sendCompleted()
                })
            return nil
        }
    }
}

/// An event, as a constraint: lets `dematerialize()` apply to signals of events.
public protocol EventConvertible<EventValue> {
    associatedtype EventValue
    /// The event itself.
    var event: Event<EventValue> { get }
}

extension Event: EventConvertible {
    public var event: Event<Value> { self }
}

extension Signal where Value: EventConvertible {
    /// Turns values that are events back into events (RAC `dematerialize`): `.next(v)`
    /// sends `v`, `.error` fails, `.completed` completes.
    public func dematerialize(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Value.EventValue> {
        let site = SourceLocation(file, line, function)
        return Signal<Value.EventValue>(operator: "dematerialize", parents: [dataEdge], site: site) { subscriber in
            self.forward(to: subscriber, site: site) { subscriber.send($0.event) }
            return nil
        }
    }
}
