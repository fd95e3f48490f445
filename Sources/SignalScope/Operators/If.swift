extension Signal {
    /// Forwards `trueSignal` while `condition`'s latest value is `true`, and `falseSignal`
    /// while it is `false`, switching as the condition changes (RAC `+if:then:else:`).
    /// Completes when `condition` and the current branch have completed.
    public static func `if`(
        _ condition: Signal<Bool>, then trueSignal: Signal<Value>, else falseSignal: Signal<Value>,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Value> {
        let site = SourceLocation(file, line, function)
        return Signal(
            operator: "if", parents: [condition.controlEdge, trueSignal.dataEdge, falseSignal.dataEdge], site: site
        ) { subscriber in
            let coordinator = SwitchCoordinator(downstream: subscriber, site: site)
            condition.forward(
                to: subscriber, site: site,
                next: { coordinator.switchTo($0 ? trueSignal : falseSignal, reportEdge: false) },
                completed: { coordinator.outerCompleted() })
            return nil
        }
    }
}
