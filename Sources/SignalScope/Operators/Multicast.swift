import Synchronization

/// Shares one subscription to a source among many subscribers, through a subject
/// (RACMulticastConnection).
///
/// Nothing happens until ``connect()``: then the source is subscribed once, and its events
/// go to the subject, which ``signal`` exposes. Subscribers see only what the subject sends
/// after they subscribe (or what it replays, for a ``ReplaySubject``).
public final class MulticastConnection<Value>: @unchecked Sendable {
    private let source: Signal<Value>
    private let subject: Subject<Value>
    private let site: SourceLocation
    private let connection = SerialDisposable()
    private let hasConnected = Atomic<Bool>(false)

    init(source: Signal<Value>, subject: Subject<Value>, site: SourceLocation) {
        self.source = source
        self.subject = subject
        self.site = site
        subject.hook?.edgeAdded(source.dataEdge, to: subject.id)
    }

    /// The subject the source's events are sent to.
    public var signal: Signal<Value> { subject }

    /// Subscribes the subject to the source, the first time only.
    /// - Returns: The connection's disposable: disposing it ends the shared subscription.
    @discardableResult
    public func connect() -> Disposable {
        if !hasConnected.exchange(true, ordering: .acquiringAndReleasing) {
            // The connection holds the subscription before the source starts sending, so
            // disposing it from a synchronous event stops the source at once (rule O38).
            source.subscribe(subject, site: site, hold: { [connection] in connection.inner = $0 })
        }
        return connection
    }

    /// A signal that connects when its first subscriber arrives and disposes the connection
    /// when its last subscriber leaves (RAC `autoconnect`). As in RAC, it does not connect
    /// again after that.
    public func autoconnect(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Value> {
        let site = SourceLocation(file, line, function)
        let subscribers = Atomic<Int>(0)
        return Signal(operator: "autoconnect", parents: [subject.dataEdge], site: site) { subscriber in
            subscribers.add(1, ordering: .relaxed)
            // Held before connecting: a subscriber that ends during the connection's
            // synchronous events disconnects the source at once (rule O38).
            subscriber.add(Disposable {
                if subscribers.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 {
                    self.connection.dispose()
                }
            })
            self.subject.forwardAll(to: subscriber, site: site)
            self.connect()
            return nil
        }
    }
}

extension Signal {
    /// Prepares to share this signal through `subject` (RAC `multicast:`); call `connect()`
    /// on the result to start.
    public func multicast(
        _ subject: Subject<Value>,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> MulticastConnection<Value> {
        MulticastConnection(source: self, subject: subject, site: SourceLocation(file, line, function))
    }

    /// Prepares to share this signal through a plain ``Subject`` (RAC `publish`).
    public func publish(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> MulticastConnection<Value> {
        let site = SourceLocation(file, line, function)
        return MulticastConnection(
            source: self, subject: Subject(kind: .subject, name: "publish", capacity: 0, initial: [], site: site),
            site: site)
    }
}
