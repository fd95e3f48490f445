extension Signal {
    /// Shares one subscription to this signal among all current subscribers (RxSwift
    /// `share()`, ReactiveSwift's hot `Signal` for a cold source): the first subscriber
    /// subscribes this signal, later ones join the same stream and see only what it sends
    /// after they arrive, and when the last one leaves, the shared subscription is disposed.
    /// The next subscriber after that, or after the stream ended, subscribes this signal
    /// again.
    ///
    /// `publish().autoconnect()` is the RAC 2 form, which never subscribes again once its
    /// subscribers have gone; `replayLazily()` also gives late subscribers what was sent.
    public func share(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Value> {
        let site = SourceLocation(file, line, function)
        let shared = Locked(SharedConnection<Value>())
        return Signal(operator: "share", parents: [dataEdge], site: site) { subscriber in
            let (connection, isNew) = shared.withLock { $0.join(site: site) }
            // Held before connecting: a subscriber that ends during the connection's
            // synchronous events disconnects the source at once (rule O38).
            subscriber.add(Disposable { shared.withLock { $0.leave(connection) }?.dispose() })
            connection.subject.forwardAll(to: subscriber, site: site)
            if isNew {
                self.subscribe(connection.subject, site: site, hold: { [disposable = connection.disposable] in disposable.inner = $0 })
            }
            return nil
        }
    }
}

/// One subscription of `share()`'s source, with the subject that fans it out.
private final class ShareConnection<Value>: @unchecked Sendable {
    let subject: Subject<Value>
    let disposable = SerialDisposable()
    var subscribers = 0

    init(site: SourceLocation) {
        subject = Subject(kind: .subject, name: "share", capacity: 0, initial: [], site: site)
    }
}

/// The connection `share()`'s subscribers join, if one is running.
private struct SharedConnection<Value> {
    private var current: ShareConnection<Value>?

    /// The running connection, or a new one (`isNew`) when there is none or it has ended.
    mutating func join(site: SourceLocation) -> (ShareConnection<Value>, isNew: Bool) {
        if let current, current.subject.hasTerminated != true {
            current.subscribers += 1
            return (current, false)
        }
        let connection = ShareConnection<Value>(site: site)
        connection.subscribers = 1
        current = connection
        return (connection, true)
    }

    /// Returns the connection's disposable to dispose when its last subscriber has left.
    mutating func leave(_ connection: ShareConnection<Value>) -> SerialDisposable? {
        connection.subscribers -= 1
        guard connection.subscribers == 0 else { return nil }
        if current === connection { current = nil }
        return connection.disposable
    }
}
