extension Signal {
    /// Subscribes to this signal once, now, and replays everything it has sent to every
    /// subscriber (RAC `replay`): a cold request made hot, so it runs once.
    public func replay(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Value> {
        replayConnection("replay", capacity: .max, SourceLocation(file, line, function)).connected
    }

    /// Like ``replay()``, but replays only the latest value (RAC `replayLast`).
    public func replayLast(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Value> {
        replayConnection("replayLast", capacity: 1, SourceLocation(file, line, function)).connected
    }

    /// Like ``replay()``, but subscribes to this signal only when the result is first
    /// subscribed to (RAC `replayLazily`).
    public func replayLazily(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Value> {
        let site = SourceLocation(file, line, function)
        let connection = replayConnection("replayLazily", capacity: .max, site)
        return Signal(operator: "replayLazily", parents: [connection.signal.dataEdge], site: site) { subscriber in
            connection.connect()
            connection.signal.forwardAll(to: subscriber, site: site)
            return nil
        }
    }

    private func replayConnection(_ name: String, capacity: Int, _ site: SourceLocation) -> MulticastConnection<Value> {
        MulticastConnection(
            source: self, subject: ReplaySubject(kind: .replaySubject, name: name, capacity: capacity, site: site),
            site: site)
    }
}

extension MulticastConnection {
    /// Connects, and returns the shared signal.
    fileprivate var connected: Signal<Value> {
        connect()
        return signal
    }
}
