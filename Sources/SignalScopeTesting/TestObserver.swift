import Foundation
@_spi(Locking) import SignalScope

/// One event as a test sees it: a value, an error by its description, or completion.
///
/// Errors are compared by their `String(describing:)`, so tests can state them literally.
public enum RecordedEvent<Value> {
    case next(Value)
    case error(String)
    case completed
}

extension RecordedEvent: Equatable where Value: Equatable {}
extension RecordedEvent: Sendable where Value: Sendable {}

/// An event with the virtual time, in seconds since the scheduler's start, at which it
/// arrived: one mark of a marble diagram.
public struct Recorded<Value> {
    /// When the event arrived, in the scheduler's virtual time.
    public let time: TimeInterval
    /// The event.
    public let event: RecordedEvent<Value>

    /// Creates a timed event, as tests write the expected ones.
    public init(time: TimeInterval, event: RecordedEvent<Value>) {
        self.time = time
        self.event = event
    }

    /// A value at `time`.
    public static func next(_ time: TimeInterval, _ value: Value) -> Self { Self(time: time, event: .next(value)) }
    /// An error, by description, at `time`.
    public static func error(_ time: TimeInterval, _ description: String) -> Self {
        Self(time: time, event: .error(description))
    }
    /// Completion at `time`.
    public static func completed(_ time: TimeInterval) -> Self { Self(time: time, event: .completed) }
}

extension Recorded: Equatable where Value: Equatable {}
extension Recorded: Sendable where Value: Sendable {}

extension Recorded: CustomStringConvertible {
    public var description: String {
        switch event {
        case .next(let value): "next(\(time), \(value))"
        case .error(let description): "error(\(time), \(description))"
        case .completed: "completed(\(time))"
        }
    }
}

/// Subscribes to a signal and records everything it sends, for assertions.
///
/// ```swift
/// let scheduler = TestScheduler()
/// let observer = TestObserver(Signal.interval(1, on: scheduler).take(2), clock: scheduler)
/// scheduler.run()
/// #expect(observer.recorded.map(\.time) == [1, 2, 2])
/// ```
///
/// Thread-safe: events may arrive on any thread.
public final class TestObserver<Value>: @unchecked Sendable {
    /// What the subscription's closures write to. They capture this log rather than the
    /// observer, so a discarded observer never breaks a subscription that outlives it.
    private final class Log: @unchecked Sendable {
        let entries = LockedValue<UncheckedBox<[(time: TimeInterval, event: Event<Value>)]>>(UncheckedBox([]))
        let clock: (any Scheduler)?
        let start: Date?

        init(clock: (any Scheduler)?) {
            self.clock = clock
            start = clock?.now
        }

        func record(_ event: Event<Value>) {
            let time = clock.map { $0.now.timeIntervalSince(start!) } ?? 0
            entries.withLock { $0.value.append((time, event)) }
        }

        var events: [(time: TimeInterval, event: Event<Value>)] { entries.withLock { $0.value } }
    }

    private let log: Log
    /// The subscription's disposable.
    public let disposable: Disposable

    /// Subscribes to `signal`; event times are measured on `clock` when given, else 0.
    public init(
        _ signal: Signal<Value>, clock: (any Scheduler)? = nil,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) {
        _ = TestingModule.declared
        let log = Log(clock: clock)
        self.log = log
        disposable = signal.subscribe(
            next: { log.record(.next($0)) },
            error: { log.record(.error($0)) },
            completed: { log.record(.completed) },
            file: file, line: line, function: function)
    }

    /// Every event, with its time.
    public var recorded: [Recorded<Value>] {
        log.events.map { entry in
            switch entry.event {
            case .next(let value): .next(entry.time, value)
            case .error(let error): .error(entry.time, String(describing: error))
            case .completed: .completed(entry.time)
            }
        }
    }

    /// Every event, without times.
    public var recordedEvents: [RecordedEvent<Value>] { recorded.map(\.event) }

    /// The values received, in order.
    public var values: [Value] { log.events.compactMap(\.event.value) }

    /// The error received, if any.
    public var error: (any Error)? { log.events.lazy.compactMap(\.event.error).first }

    /// Whether completion was received.
    public var isCompleted: Bool {
        log.events.contains { if case .completed = $0.event { true } else { false } }
    }

    /// Whether an error or completion was received.
    public var isTerminated: Bool { log.events.contains { $0.event.isTerminal } }

    /// How many events were received.
    public var eventCount: Int { log.events.count }
}

/// Lets a mutex hold values that are not `Sendable`; the mutex guards every access.
struct UncheckedBox<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}
