import Foundation

extension Signal where Value == Date {
    /// Sends the scheduler's current date every `interval` seconds, starting `interval`
    /// seconds after subscription, until disposed (RAC `+interval:onScheduler:`). Never
    /// completes: pair it with `take` or `takeUntil`.
    ///
    /// - Parameter interval: Seconds between values; must be positive.
    public static func interval(
        _ interval: TimeInterval, on scheduler: any Scheduler,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Date> {
        Require.positive(interval, "interval(_:on:) interval")
        return Signal(kind: .signal, name: "interval", traits: .cold, site: SourceLocation(file, line, function)) { subscriber in
            scheduler.schedule(after: scheduler.now.addingTimeInterval(interval), interval: interval) {
                subscriber.sendNext(scheduler.now)
            }
        }
    }
}
