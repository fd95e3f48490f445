extension Signal {
    /// Runs `action` for every value before forwarding it (RAC `doNext:`).
    public func doNext(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        _ action: @escaping (Value) -> Void
    ) -> Signal<Value> {
        sideEffectStage("doNext", SourceLocation(file, line, function), next: action)
    }

    /// Runs `action` with the error before forwarding it (RAC `doError:`).
    public func doError(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        _ action: @escaping (any Error) -> Void
    ) -> Signal<Value> {
        sideEffectStage("doError", SourceLocation(file, line, function), error: action)
    }

    /// Runs `action` before forwarding completion (RAC `doCompleted:`).
    public func doCompleted(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        _ action: @escaping () -> Void
    ) -> Signal<Value> {
        sideEffectStage("doCompleted", SourceLocation(file, line, function), completed: action)
    }

    /// The stage behind the `do` operators and `log`: runs the given closures, then
    /// forwards each event unchanged.
    func sideEffectStage(
        _ name: String, _ site: SourceLocation,
        next: ((Value) -> Void)? = nil, error: ((any Error) -> Void)? = nil, completed: (() -> Void)? = nil
    ) -> Signal<Value> {
        Signal(
            operator: name, parents: [dataEdge], site: site,
            keeping: Self.keptSideEffects(site, next, error, completed)
        ) { subscriber in
            self.forward(
                to: subscriber, site: site,
                next: { value in
                    next?(value)
                    subscriber.sendNext(value)
                },
                error: { failure in
                    error?(failure)
                    subscriber.sendError(failure)
                },
                completed: {
                    completed?()
                    subscriber.sendCompleted()
                })
            return nil
        }
    }

    /// The side effects a stage keeps, unwrapped with `if let`: `Optional.map` would hand
    /// its closure a reabstracted copy, whose words are not the ones the stage stores.
    private static func keptSideEffects(
        _ site: SourceLocation, _ next: ((Value) -> Void)?, _ error: ((any Error) -> Void)?, _ completed: (() -> Void)?
    ) -> [KeptClosure] {
        var kept: [KeptClosure] = []
        if let next { kept.append(KeptClosure(.sideEffect, site, next)) }
        if let error { kept.append(KeptClosure(.sideEffect, site, error)) }
        if let completed { kept.append(KeptClosure(.sideEffect, site, completed)) }
        return kept
    }
}
