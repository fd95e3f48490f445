import DequeModule

/// A hot signal you send events to by hand (RACSubject).
///
/// A subject is a ``Signal``, so it can be passed anywhere a signal is expected, and a
/// ``SubscriberProtocol``, so a signal can forward into it with `signal.subscribe(subject)`.
///
/// It keeps every subscriber, and whatever their closures capture, until it sends `error`
/// or `completed`: a subject that is never completed keeps its subscribers alive for as
/// long as it lives, which is the "subject must sendCompleted" trap SignalScope's analyzers
/// look for. After its terminal event a subject ignores further events (they are reported
/// as violations) and sends that terminal event to late subscribers at once.
///
/// Sends from several threads at once are safe; every subscriber sees the events in the
/// same order. A send made from inside a subscriber's closure is delivered to everyone
/// after the current event has reached every subscriber.
public class Subject<Value>: Signal<Value>, SubscriberProtocol, @unchecked Sendable {
    private enum Operation {
        case send(Event<Value>)
        case attach(Subscriber<Value>)
    }

    /// What the drainer does outside the lock for one operation.
    private enum Work {
        case fanOut(Event<Value>, to: [Subscriber<Value>])
        case replay([Value], then: Event<Value>?, to: Subscriber<Value>)
    }

    private enum Admission {
        case drain(Work)
        case queued
        case violation
    }

    private struct State {
        var subscribers: [Subscriber<Value>] = []
        var buffer: Deque<Value>
        var terminal: Event<Value>?
        var terminalAccepted = false
        var queue = Trampoline<Operation>()
    }

    private let capacity: Int
    private let state: Locked<State>
    private let upstream = CompoundDisposable()

    /// Creates a subject (RAC `+subject`).
    public convenience init(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) {
        self.init(
            kind: .subject, name: "subject", capacity: 0, initial: [],
            site: SourceLocation(fileID: file, line: line, function: function))
    }

    init(kind: NodeKind, name: String, capacity: Int, initial: [Value], site: SourceLocation) {
        self.capacity = capacity
        state = Locked(State(buffer: Deque(initial)))
        super.init(kind: kind, name: name, site: site, didSubscribe: nil)
    }

    /// Sends a value to every current subscriber.
    public func sendNext(_ value: Value) { send(.next(value)) }

    /// Sends an error to every subscriber and releases them all.
    public func sendError(_ error: any Error) { send(.error(error)) }

    /// Sends completion to every subscriber and releases them all.
    public func sendCompleted() { send(.completed) }

    /// Keeps the disposable of a signal forwarding into this subject, and disposes it when
    /// the subject terminates.
    public func didSubscribe(with disposable: Disposable) {
        upstream.add(disposable)
    }

    /// Sends `event` to every current subscriber.
    public func send(_ event: Event<Value>) {
        let admission = state.withLock { state -> Admission in
            if state.terminalAccepted { return .violation }
            if event.isTerminal { state.terminalAccepted = true }
            guard state.queue.enter(.send(event)) else { return .queued }
            return .drain(prepare(.send(event), &state))
        }
        switch admission {
        case .drain(let work): drain(from: work)
        case .queued: break
        case .violation:
            Instrumentation.current?.eventDropped(
                DroppedEvent(kind: event.droppedKind, node: id, subscription: nil))
        }
    }

    override func attach(_ subscriber: Subscriber<Value>) {
        let key = ObjectIdentifier(subscriber)
        subscriber.add(Disposable { [self] in detach(key) })
        let work = state.withLock { state in
            state.queue.enter(.attach(subscriber)) ? prepare(.attach(subscriber), &state) : nil
        }
        if let work { drain(from: work) }
    }

    private func detach(_ key: ObjectIdentifier) {
        state.withLock { state in
            guard let index = state.subscribers.lastIndex(where: { ObjectIdentifier($0) == key }) else { return }
            state.subscribers.remove(at: index)
        }
    }

    /// Applies `operation` to the state; called with the lock held, by the drainer only, so
    /// the buffer, the subscriber list and the order of deliveries always agree.
    private func prepare(_ operation: Operation, _ state: inout State) -> Work {
        switch operation {
        case .send(let event):
            switch event {
            case .next(let value):
                if capacity > 0 {
                    if state.buffer.count == capacity { state.buffer.removeFirst() }
                    state.buffer.append(value)
                }
                return .fanOut(event, to: state.subscribers)
            case .error, .completed:
                state.terminal = event
                defer { state.subscribers = [] }
                return .fanOut(event, to: state.subscribers)
            }
        case .attach(let subscriber):
            if state.terminal == nil { state.subscribers.append(subscriber) }
            return .replay(Array(state.buffer), then: state.terminal, to: subscriber)
        }
    }

    private func drain(from first: Work) {
        var work: Work? = first
        while let current = work {
            perform(current)
            work = state.withLock { state in state.queue.next().map { prepare($0, &state) } }
        }
    }

    private func perform(_ work: Work) {
        switch work {
        case .fanOut(let event, let subscribers):
            if event.isTerminal { upstream.dispose() }
            for subscriber in subscribers { subscriber.send(event) }
        case .replay(let values, let terminal, let subscriber):
            for value in values { subscriber.sendNext(value) }
            if let terminal { subscriber.send(terminal) }
            // Disposed while it waited to be attached: its removal already ran.
            if subscriber.isDisposed { detach(ObjectIdentifier(subscriber)) }
        }
    }
}

/// A subject that replays up to `capacity` past values, then its terminal event, to every
/// new subscriber (RACReplaySubject).
public final class ReplaySubject<Value>: Subject<Value>, @unchecked Sendable {
    /// Creates a replay subject.
    ///
    /// - Parameter capacity: How many of the latest values to replay; unlimited by
    ///   default. Must not be negative.
    public init(
        capacity: Int = .max,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) {
        Require.nonNegative(capacity, "ReplaySubject capacity")
        super.init(
            kind: .replaySubject, name: "replaySubject", capacity: capacity, initial: [],
            site: SourceLocation(fileID: file, line: line, function: function))
    }

    init(kind: NodeKind, name: String, capacity: Int, site: SourceLocation) {
        super.init(kind: kind, name: name, capacity: capacity, initial: [], site: site)
    }
}

/// A subject that sends its latest value to every new subscriber, starting with an
/// initial value (RACBehaviorSubject).
public final class BehaviorSubject<Value>: Subject<Value>, @unchecked Sendable {
    /// Creates a behavior subject whose current value is `initial`.
    public init(
        _ initial: Value,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) {
        super.init(
            kind: .behaviorSubject, name: "behaviorSubject", capacity: 1, initial: [initial],
            site: SourceLocation(fileID: file, line: line, function: function))
    }

    init(_ initial: Value, kind: NodeKind, name: String, site: SourceLocation) {
        super.init(kind: kind, name: name, capacity: 1, initial: [initial], site: site)
    }
}
