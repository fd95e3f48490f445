// The three ways back out of `materialize()` for code that handles each kind of event on a
// stream of its own (ReactiveSwift `Signal.values`, `errors`; RxSwift `elements()`,
// `errors()`). The signal's own terminal events pass through, as every operator's do (O0).

extension Signal {
    /// Sends the value of every `.next` event, and drops the others.
    public func values<Element>(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Element> where Value == Event<Element> {
        compactMapStage("values", SourceLocation(file, line, function)) { $0.value }
    }

    /// Sends the error of every `.error` event, and drops the others.
    public func errors<Element>(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<any Error> where Value == Event<Element> {
        compactMapStage("errors", SourceLocation(file, line, function)) { $0.error }
    }

    /// Sends `()` for every `.completed` event, and drops the others.
    public func completions<Element>(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Void> where Value == Event<Element> {
        compactMapStage("completions", SourceLocation(file, line, function)) { event in
            if case .completed = event { return () }
            return nil
        }
    }
}
