extension Signal {
    /// Drops `nil` values and sends the others unwrapped (RAC `-ignore:nil`, ReactiveSwift
    /// `skipNil()`, RxSwift `compactMap { $0 }`).
    public func skipNil<Wrapped>(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Wrapped> where Value == Wrapped? {
        let site = SourceLocation(file, line, function)
        return Signal<Wrapped>(operator: "skipNil", parents: [dataEdge], site: site) { subscriber in
            self.forward(to: subscriber, site: site) { value in
                if let value { subscriber.sendNext(value) }
            }
            return nil
        }
    }
}
