extension Signal {
    /// Drops `nil` values and sends the others unwrapped (RAC `-ignore:nil`, ReactiveSwift
    /// `skipNil()`, RxSwift `compactMap { $0 }`).
    public func skipNil<Wrapped>(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Wrapped> where Value == Wrapped? {
        compactMapStage("skipNil", SourceLocation(file, line, function)) { $0 }
    }
}
