import Foundation

/// Errors the runtime's own operators send.
public enum SignalError: Error, Equatable, CustomStringConvertible {
    /// `timeout(_:on:)` ran out before the signal terminated (RACSignalErrorTimedOut).
    case timedOut

    public var description: String {
        switch self {
        case .timedOut: "the signal did not terminate before its timeout"
        }
    }
}

extension Signal {
    /// Forwards this signal, but fails with ``SignalError/timedOut`` and disposes the source
    /// subscription if it has not terminated `interval` seconds after subscription (RAC
    /// `timeout:onScheduler:`). Values do not reset the clock.
    public func timeout(
        _ interval: TimeInterval, on scheduler: any Scheduler,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Value> {
        Require.nonNegative(interval, "timeout(_:on:) interval")
        let site = SourceLocation(file, line, function)
        return Signal(operator: "timeout", traits: .bounding, parents: [dataEdge], site: site) { subscriber in
            subscriber.add(scheduler.schedule(after: scheduler.now.addingTimeInterval(interval)) {
                subscriber.sendError(SignalError.timedOut)
            })
            self.forwardAll(to: subscriber, site: site)
            return nil
        }
    }
}
