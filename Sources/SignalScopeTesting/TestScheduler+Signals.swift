import Foundation
@_spi(Locking) import SignalScope

/// When one subscription to a test signal started and ended, in seconds since the
/// scheduler's start; `ended` is `nil` while it is live.
public struct SubscriptionSpan: Equatable, Sendable, CustomStringConvertible {
    /// When the subscription was made, in the scheduler's virtual time.
    public let started: TimeInterval
    /// When it was disposed, or `nil` if it is still live.
    public let ended: TimeInterval?

    /// Creates a span, as tests write the expected one: `SubscriptionSpan(0, 30)`.
    public init(_ started: TimeInterval, _ ended: TimeInterval?) {
        self.started = started
        self.ended = ended
    }

    public var description: String { "(\(started), \(ended.map { "\($0)" } ?? "live"))" }
}

/// The error a marble's `.error(time, description)` sends: its description is the string.
public struct MarbleError: Error, Equatable, CustomStringConvertible {
    /// What the error says; errors compare by it.
    public let description: String
    /// Creates an error that says `description`.
    public init(_ description: String) { self.description = description }
}

/// A cold signal scripted in virtual time, which records each subscription's span.
public struct TestableSignal<Value> {
    /// The signal to subscribe to.
    public let signal: Signal<Value>
    fileprivate let log: SpanLog

    /// Every subscription so far, in the order they started.
    public var subscriptions: [SubscriptionSpan] { log.spans.withLock { $0 } }
}

fileprivate final class SpanLog: Sendable {
    let spans = LockedValue<[SubscriptionSpan]>([])

    init() { _ = TestingModule.declared }

    func started(at time: TimeInterval) -> Int {
        spans.withLock { spans in
            spans.append(SubscriptionSpan(time, nil))
            return spans.count - 1
        }
    }

    func ended(_ index: Int, at time: TimeInterval) {
        spans.withLock { $0[index] = SubscriptionSpan($0[index].started, time) }
    }
}

extension TestScheduler {
    /// A hot signal that sends `events` at their times, in seconds from now, whether or not
    /// anyone is subscribed.
    public func createHotSignal<Value>(
        _ events: [Recorded<Value>],
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Value> {
        let subject = Subject<Value>(file: file, line: line, function: function)
        let start = now
        for recorded in events {
            let event = recorded.event
            schedule(after: start.addingTimeInterval(recorded.time)) { subject.send(event.asEvent) }
        }
        return subject
    }

    /// A cold signal that, for each subscription, sends `events` at their times in seconds
    /// from that subscription, and records when each subscription starts and ends.
    public func createColdSignal<Value>(
        _ events: [Recorded<Value>],
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> TestableSignal<Value> {
        let origin = now
        let log = SpanLog()
        let signal = Signal<Value>(file: file, line: line, function: function) { [self] subscriber in
                let subscribedAt = now
                let index = log.started(at: subscribedAt.timeIntervalSince(origin))
                let scheduled = CompoundDisposable()
                for recorded in events {
                    let event = recorded.event
                    scheduled.add(schedule(after: subscribedAt.addingTimeInterval(recorded.time)) {
                        subscriber.send(event.asEvent)
                    })
                }
                return Disposable { [self] in
                    scheduled.dispose()
                    log.ended(index, at: now.timeIntervalSince(origin))
                }
            }
        return TestableSignal(signal: signal, log: log)
    }
}

extension RecordedEvent {
    /// The event to send for this marble.
    var asEvent: Event<Value> {
        switch self {
        case .next(let value): .next(value)
        case .error(let description): .error(MarbleError(description))
        case .completed: .completed
        }
    }
}
