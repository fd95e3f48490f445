extension Signal where Value == Bool {
    /// Sends the negation of every value (RAC `not`).
    public func not(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Bool> {
        mapStage("not", SourceLocation(file, line, function)) { !$0 }
    }
}

extension Signal where Value == [Bool] {
    /// Sends whether all of each array's values are `true` (RAC `and`).
    public func and(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Bool> {
        mapStage("and", SourceLocation(file, line, function)) { !$0.contains(false) }
    }

    /// Sends whether any of each array's values is `true` (RAC `or`).
    public func or(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Bool> {
        mapStage("or", SourceLocation(file, line, function)) { $0.contains(true) }
    }
}

extension Signal where Value == (Bool, Bool) {
    /// Sends whether both values of each pair are `true` (RAC `and`), as from
    /// `Signal.combineLatest(a, b)`.
    public func and(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Bool> {
        mapStage("and", SourceLocation(file, line, function)) { $0.0 && $0.1 }
    }

    /// Sends whether either value of each pair is `true` (RAC `or`).
    public func or(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Bool> {
        mapStage("or", SourceLocation(file, line, function)) { $0.0 || $0.1 }
    }
}
