import DequeModule
import Synchronization

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
    // As in Subscriber, the per-event path touches only `Value`, closures and non-generic
    // types (`SubjectState`, `SubjectOperation`, `SubjectWork`): values are boxed only when
    // they are kept (replay) or have to wait, and unboxed with a cast to `Value`.
    private let capacity: Int
    // Who delivers, and whether operations wait (DrainFlags): a value sent while nobody
    // delivers fans out and hands the role back with one compare-and-swap.
    private let flags = Atomic<Int>(0)
    private let lock = StateLock()
    @exclusivity(unchecked) private var state: SubjectState
    private let upstream = CompoundDisposable()

    /// Creates a subject (RAC `+subject`).
    public convenience init(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) {
        self.init(
            kind: .subject, name: "subject", capacity: 0, initial: [],
            site: SourceLocation(fileID: file, line: line, function: function))
    }

    /// `traits` adds to `.hot`, which every subject is.
    init(
        kind: NodeKind, name: String, traits: NodeTraits = [], capacity: Int, initial: [Value], site: SourceLocation
    ) {
        self.capacity = capacity
        state = SubjectState(capacity: capacity, buffer: Deque(initial.map { $0 as Any }))
        super.init(kind: kind, name: name, traits: traits.union(.hot), site: site, didSubscribe: nil)
    }

    /// Sends a value to every current subscriber.
    public func sendNext(_ value: Value) {
        switch lock.withLock({ state.admitNext(value, flags: flags) }) {
        case .fanOut(let subscribers):
            send(value, to: subscribers)
            // Inline, the common case: nothing waits, and the role goes back with one
            // compare-and-swap, with no optional work to make and destroy.
            if !DrainFlags.leaveIfNothingWaits(flags) { performQueued() }
        case .now(let work): perform(work)
        case .queued: break
        case .violation: reportViolation(.next)
        }
    }

    /// Sends an error to every subscriber and releases them all.
    public func sendError(_ error: any Error) { sendTerminal(.error(error)) }

    /// Sends completion to every subscriber and releases them all.
    public func sendCompleted() { sendTerminal(.completed) }

    /// Keeps the disposable of a signal forwarding into this subject, and disposes it when
    /// the subject terminates.
    public func didSubscribe(with disposable: Disposable) {
        upstream.add(disposable)
    }

    private func sendTerminal(_ terminal: SubjectTerminal) {
        let admission = lock.withLock { state.admitTerminal(terminal, flags: flags) }
        if case .violation = admission {} else { hook?.nodeTerminated(id) }
        switch admission {
        case .now(let work): perform(work)
        case .fanOut, .queued: break
        case .violation:
            switch terminal {
            case .error: reportViolation(.error)
            case .completed: reportViolation(.completed)
            }
        }
    }

    override func attach(_ subscriber: Subscriber<Value>) {
        let key = ObjectIdentifier(subscriber)
        subscriber.add(Disposable { [self] in detach(key) })
        if case .now(let work) = lock.withLock({ state.admitAttach(subscriber, flags: flags) }) {
            perform(work)
        }
    }

    private func detach(_ key: ObjectIdentifier) {
        lock.withLock { state.detach(key) }
    }

    override package var hasTerminated: Bool? { lock.withLock { state.isTerminated } }

    private func reportViolation(_ kind: DroppedEvent.Kind) {
        hook?.eventDropped(DroppedEvent(kind: kind, node: id, subscription: nil))
    }

    private func send(_ value: Value, to subscribers: ContiguousArray<AnyObject>) {
        // `subscribers` holds every subscriber until the send returns, so each is used
        // without a retain and release of its own: a subscriber has a side table (its
        // disposable refers to it weakly), which makes every retain take the slow path, and
        // those were two fifths of a delivery to a hundred subscribers.
        subscribers.withUnsafeBufferPointer { buffer in
            let words = UnsafeRawPointer(buffer.baseAddress)
            for index in buffer.indices {
                let object = words.unsafelyUnwrapped.load(fromByteOffset: index * MemoryLayout<AnyObject>.stride, as: UnsafeRawPointer.self)
                Unmanaged<Subscriber<Value>>.fromOpaque(object)._withUnsafeGuaranteedRef { $0.sendNext(value) }
            }
        }
    }

    private func send(_ terminal: SubjectTerminal, to subscriber: Subscriber<Value>) {
        switch terminal {
        case .error(let error): subscriber.sendError(error)
        case .completed: subscriber.sendCompleted()
        }
    }

    /// Performs one operation, then whatever queued up meanwhile.
    private func perform(_ first: SubjectWork) {
        var work: SubjectWork? = first
        while let current = work {
            switch current {
            case .fanOutValue(let value, let subscribers):
                send(value as! Value, to: subscribers)
            case .fanOutTerminal(let terminal, let subscribers):
                // As in RAC, forwarding into the subject ends before its subscribers hear.
                upstream.dispose()
                for subscriber in subscribers { send(terminal, to: unsafeDowncast(subscriber, to: Subscriber<Value>.self)) }
            case .replay(let replay, let subscriber):
                let subscriber = unsafeDowncast(subscriber, to: Subscriber<Value>.self)
                for value in replay.values { subscriber.sendNext(value as! Value) }
                if let terminal = replay.terminal { send(terminal, to: subscriber) }
                // Disposed while it waited to be attached: its removal already ran.
                if subscriber.isDisposed { detach(ObjectIdentifier(subscriber)) }
            }
            work = nextWork()
        }
    }

    /// Performs what queued up during a fan-out, which found it waiting.
    @inline(never)
    private func performQueued() {
        if let work = lock.withLock({ state.nextWork(flags: flags) }) { perform(work) }
    }

    /// What waits for the drainer, if anything: found without the lock when nothing does.
    private func nextWork() -> SubjectWork? {
        guard !DrainFlags.leaveIfNothingWaits(flags) else { return nil }
        return lock.withLock { state.nextWork(flags: flags) }
    }
}

/// An event or a new subscriber offered to a subject, its value boxed.
enum SubjectOperation {
    case next(Any)
    case terminal(SubjectTerminal)
    case attach(AnyObject)
}

/// How a subject ended, for late subscribers.
enum SubjectTerminal {
    case error(any Error)
    case completed
}

/// What a subject does, outside its lock, for one operation that was queued, or that is
/// not a value.
enum SubjectWork {
    case fanOutValue(Any, ContiguousArray<AnyObject>)
    case fanOutTerminal(SubjectTerminal, ContiguousArray<AnyObject>)
    /// Send what a new subscriber must see first.
    case replay(SubjectState.Replay, AnyObject)
}

/// The answer to offering an operation to a subject.
enum SubjectAdmission {
    /// Send the value just offered, still at hand, to these subscribers: the caller has
    /// become the drainer.
    case fanOut(ContiguousArray<AnyObject>)
    /// Perform this now: the caller has become the drainer.
    case now(SubjectWork)
    /// Another delivery is in progress; the operation waits in the queue.
    case queued
    /// The subject already terminated.
    case violation
}

/// A subject's state, without its value type (see Subject): subscribers as objects, values
/// boxed. Operations are applied under the lock as the drainer takes them, so the replay
/// buffer, the subscriber list and the order of deliveries always agree.
struct SubjectState {
    /// What a new subscriber is sent first.
    struct Replay {
        let values: Deque<Any>
        let terminal: SubjectTerminal?
    }

    private let capacity: Int
    private var subscribers = ContiguousArray<AnyObject>()
    private var buffer: Deque<Any>
    private var terminal: SubjectTerminal?
    private var terminalAccepted = false
    private var queue = DrainQueue<SubjectOperation>()

    /// Whether a terminal event has been sent (it may still be on its way to subscribers).
    var isTerminated: Bool { terminalAccepted }

    init(capacity: Int, buffer: Deque<Any>) {
        self.capacity = capacity
        self.buffer = buffer
    }

    /// Offers a value, boxing it only if it must be kept for replay or has to wait.
    mutating func admitNext(_ value: @autoclosure () -> Any, flags: borrowing Atomic<Int>) -> SubjectAdmission {
        if terminalAccepted { return .violation }
        guard case .drainer = queue.enter({ .next(value()) }, flags: flags) else { return .queued }
        remember(value())
        return .fanOut(subscribers)
    }

    /// Offers the terminal event.
    mutating func admitTerminal(_ terminal: SubjectTerminal, flags: borrowing Atomic<Int>) -> SubjectAdmission {
        if terminalAccepted { return .violation }
        terminalAccepted = true
        return admit(.terminal(terminal), flags: flags)
    }

    /// Offers a new subscriber.
    mutating func admitAttach(_ subscriber: AnyObject, flags: borrowing Atomic<Int>) -> SubjectAdmission {
        admit(.attach(subscriber), flags: flags)
    }

    private mutating func admit(_ operation: SubjectOperation, flags: borrowing Atomic<Int>) -> SubjectAdmission {
        guard case .drainer = queue.enter({ operation }, flags: flags) else { return .queued }
        return .now(apply(operation))
    }

    /// Takes the next waiting operation and applies it; `nil` when none is left, after
    /// which the caller is no longer the drainer.
    mutating func nextWork(flags: borrowing Atomic<Int>) -> SubjectWork? {
        queue.next(flags: flags).map { apply($0) }
    }

    mutating func detach(_ key: ObjectIdentifier) {
        guard let index = subscribers.lastIndex(where: { ObjectIdentifier($0) == key }) else { return }
        subscribers.remove(at: index)
    }

    /// Keeps a value for replay, up to `capacity`.
    private mutating func remember(_ value: @autoclosure () -> Any) {
        guard capacity > 0 else { return }
        if buffer.count == capacity { buffer.removeFirst() }
        buffer.append(value())
    }

    private mutating func apply(_ operation: SubjectOperation) -> SubjectWork {
        switch operation {
        case .next(let value):
            remember(value)
            return .fanOutValue(value, subscribers)
        case .terminal(let event):
            terminal = event
            defer { subscribers = [] }
            return .fanOutTerminal(event, subscribers)
        case .attach(let subscriber):
            if terminal == nil { subscribers.append(subscriber) }
            return .replay(Replay(values: buffer, terminal: terminal), subscriber)
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

    init(kind: NodeKind, name: String, traits: NodeTraits = [], capacity: Int, site: SourceLocation) {
        super.init(kind: kind, name: name, traits: traits, capacity: capacity, initial: [], site: site)
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

    init(_ initial: Value, kind: NodeKind, name: String, traits: NodeTraits = [], site: SourceLocation) {
        super.init(kind: kind, name: name, traits: traits, capacity: 1, initial: [initial], site: site)
    }
}
