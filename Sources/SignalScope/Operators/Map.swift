extension Signal {
    /// Sends `transform(value)` for every value (RAC `map:`). Completes and fails with the
    /// source; disposing it disposes the source subscription.
    public func map<Output>(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        _ transform: @escaping (Value) -> Output
    ) -> Signal<Output> {
        mapStage("map", SourceLocation(file, line, function), transform)
    }

    /// Sends `value` in place of every value (RAC `mapReplace:`).
    public func mapReplace<Output>(
        _ value: Output,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Output> {
        mapStage("mapReplace", SourceLocation(file, line, function)) { _ in value }
    }

    /// The stage behind `skipNil` and the ways out of `materialize()`: sends what `pick`
    /// returns for a value, and nothing when it returns `nil`. `pick` is the runtime's own,
    /// so the stage keeps no closure of the user's.
    func compactMapStage<Output>(
        _ name: String, _ site: SourceLocation, _ pick: @escaping (Value) -> Output?
    ) -> Signal<Output> {
        Signal<Output>(operator: name, parents: [dataEdge], site: site) { subscriber in
            self.forward(to: subscriber, site: site) { value in
                if let output = pick(value) { subscriber.sendNext(output) }
            }
            return nil
        }
    }

    /// The stage behind `map`, `mapReplace` and the Boolean operators.
    func mapStage<Output>(
        _ name: String, _ site: SourceLocation, _ transform: @escaping (Value) -> Output
    ) -> Signal<Output> {
        Signal<Output>(operator: name, parents: [dataEdge], site: site, keeping: [KeptClosure(.transform, site, transform)]) {
            subscriber in
            self.forward(to: subscriber, site: site) { subscriber.sendNext(transform($0)) }
            return nil
        }
    }
}
