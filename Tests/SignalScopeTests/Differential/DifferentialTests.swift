import SignalScopeTools
import Testing

/// The runtime against the RAC 2 reference model (RACModel.swift) on random scripts: two
/// sources, each hot (a subject) or cold (a creation block that counts its runs, sends a
/// random synchronous prefix, then forwards the subject), then random sends, completions,
/// errors and a disposal of the result. Both must deliver the same events to the result
/// and subscribe each cold source the same number of times.
@Suite("Differential: the runtime against a RAC 2 model", .timeLimit(.minutes(10)))
struct DifferentialTests {
    /// One script, reproducible from its seed.
    struct Script: CustomStringConvertible {
        struct Source {
            var isCold: Bool
            var prefix: [ModelEvent]
        }

        enum Step {
            case send(source: Int, ModelEvent)
            case disposeResult
        }

        var sources: [Source]
        var steps: [Step]
        let seed: UInt64

        init(seed: UInt64) {
            self.seed = seed
            var random = SplitMix64(seed: seed)
            func event() -> ModelEvent {
                switch Int.random(in: 0..<20, using: &random) {
                case 0..<3: .completed
                case 3..<6: .error(Int.random(in: 1...3, using: &random))
                default: .next(Int.random(in: 0...9, using: &random))
                }
            }
            sources = (0..<2).map { _ in
                Source(
                    isCold: Bool.random(using: &random),
                    prefix: (0..<Int.random(in: 0...3, using: &random)).map { _ in event() })
            }
            steps = (0..<Int.random(in: 0...10, using: &random)).map { _ in
                Int.random(in: 0..<12, using: &random) == 0
                    ? .disposeResult : .send(source: Int.random(in: 0...1, using: &random), event())
            }
        }

        var description: String {
            let sourceText = sources.map { "\($0.isCold ? "cold" : "hot") \($0.prefix)" }
            let stepText = steps.map { step in
                switch step {
                case .send(let source, let event): "\(source == 0 ? "a" : "b").\(event)"
                case .disposeResult: "dispose"
                }
            }
            return "seed \(seed): sources \(sourceText), steps \(stepText)"
        }
    }

    /// An operator applied to the two sources, in the runtime and in the model.
    struct Operation: Sendable, CustomTestStringConvertible {
        let name: String
        let runtime: @Sendable (Signal<Int>, Signal<Int>) -> Signal<Int>
        let model: @Sendable (ModelSignal<Int>, ModelSignal<Int>) -> ModelSignal<Int>
        var testDescription: String { name }
    }

    static let operations: [Operation] = [
        Operation(name: "map", runtime: { a, _ in a.map { $0 * 2 } }, model: { a, _ in a.stage { { [$0 * 2] } } }),
        Operation(
            name: "filter", runtime: { a, _ in a.filter { $0.isMultiple(of: 2) } },
            model: { a, _ in a.stage { { $0.isMultiple(of: 2) ? [$0] : [] } } }),
        Operation(
            name: "scan", runtime: { a, _ in a.scan(0, +) },
            model: { a, _ in
                a.stage {
                    var sum = 0
                    return { value in
                        sum += value
                        return [sum]
                    }
                }
            }),
        Operation(
            name: "skip", runtime: { a, _ in a.skip(2) },
            model: { a, _ in
                a.stage {
                    var skipped = 0
                    return { value in
                        guard skipped == 2 else {
                            skipped += 1
                            return []
                        }
                        return [value]
                    }
                }
            }),
        Operation(
            name: "skipWhile", runtime: { a, _ in a.skipWhile { $0 < 5 } },
            model: { a, _ in
                a.stage {
                    var skipping = true
                    return { value in
                        skipping = skipping && value < 5
                        return skipping ? [] : [value]
                    }
                }
            }),
        Operation(
            name: "distinctUntilChanged", runtime: { a, _ in a.distinctUntilChanged() },
            model: { a, _ in
                a.stage {
                    var last: Int?
                    return { value in
                        defer { last = value }
                        return value == last ? [] : [value]
                    }
                }
            }),
        Operation(
            name: "distinctUntilChanged(by:)", runtime: { a, _ in a.distinctUntilChanged { $0 % 2 == $1 % 2 } },
            model: { a, _ in
                a.stage {
                    var last: Int?
                    return { value in
                        if let last, last % 2 == value % 2 { return [] }
                        last = value
                        return [value]
                    }
                }
            }),
        Operation(
            name: "skipNil", runtime: { a, _ in a.map { $0.isMultiple(of: 3) ? nil : $0 }.skipNil() },
            model: { a, _ in a.stage { { $0.isMultiple(of: 3) ? [] : [$0] } } }),
        Operation(name: "ignoreValues", runtime: { a, _ in a.ignoreValues() }, model: { a, _ in a.stage { { _ in [] } } }),
        Operation(name: "take(2)", runtime: { a, _ in a.take(2) }, model: { a, _ in a.take(2) }),
        Operation(name: "take(0)", runtime: { a, _ in a.take(0) }, model: { a, _ in a.take(0) }),
        Operation(name: "takeWhile", runtime: { a, _ in a.takeWhile { $0 < 7 } }, model: { a, _ in a.takeWhile { $0 < 7 } }),
        Operation(name: "startWith", runtime: { a, _ in a.startWith(100) }, model: { a, _ in ModelSignal.just(100).concat(a) }),
        Operation(
            name: "takeLast", runtime: { a, _ in a.takeLast(2) }, model: { a, _ in a.atCompletion { Array($0.suffix(2)) } }),
        Operation(
            name: "collect", runtime: { a, _ in a.collect().map(\.count) }, model: { a, _ in a.atCompletion { [$0.count] } }),
        Operation(
            name: "aggregate", runtime: { a, _ in a.aggregate(0, +) },
            model: { a, _ in a.atCompletion { [$0.reduce(0, +)] } }),
        Operation(name: "concat", runtime: { a, b in a.concat(b) }, model: { a, b in a.concat(b) }),
        Operation(name: "merge", runtime: { a, b in a.merge(b) }, model: { a, b in a.merge(b) }),
        Operation(name: "Signal.merge", runtime: { a, b in Signal.merge([a, b]) }, model: { a, b in a.merge(b) }),
        Operation(name: "takeUntil", runtime: { a, b in a.takeUntil(b) }, model: { a, b in a.takeUntil(b) }),
        Operation(name: "sample", runtime: { a, b in a.sample(on: b) }, model: { a, b in a.sample(b) }),
        Operation(name: "catchTo", runtime: { a, b in a.catchTo(b) }, model: { a, b in a.catchTo(b) }),
        Operation(name: "retry(2)", runtime: { a, _ in a.retry(2) }, model: { a, _ in a.retry(2) }),
        Operation(name: "zip", runtime: { a, b in a.zip(with: b).map { $0 + $1 } }, model: { a, b in a.zip(b) }),
        Operation(
            name: "combineLatest", runtime: { a, b in Signal.combineLatest(a, b).map { $0 + $1 } },
            model: { a, b in a.combineLatest(b) }),
        Operation(
            name: "flattenMap", runtime: { a, b in a.flattenMap { $0.isMultiple(of: 2) ? b : .just($0 * 10) } },
            model: { a, b in a.flattenMap { $0.isMultiple(of: 2) ? b : .just($0 * 10) } }),
        Operation(
            name: "switchToLatest", runtime: { a, b in a.map { $0.isMultiple(of: 2) ? b : .just($0 * 10) }.switchToLatest() },
            model: { a, b in a.switchMap { $0.isMultiple(of: 2) ? b : .just($0 * 10) } }),
    ]

    /// What one run produced: the result's events and how often each cold source ran.
    struct Outcome: Equatable, CustomStringConvertible {
        var events: [ModelEvent] = []
        var subscriptions = [0, 0]
        var description: String { "events \(events), subscriptions \(subscriptions)" }
    }

    static func runRuntime(_ operation: Operation, _ script: Script) -> Outcome {
        var outcome = Outcome()
        let subjects = [Subject<Int>(), Subject<Int>()]
        let sources = script.sources.enumerated().map { index, source -> Signal<Int> in
            guard source.isCold else { return subjects[index] }
            return Signal { subscriber in
                outcome.subscriptions[index] += 1
                for event in source.prefix { subscriber.send(event.runtimeEvent) }
                return subjects[index].subscribe(subscriber)
            }
        }
        let disposable = operation.runtime(sources[0], sources[1]).subscribe(
            next: { outcome.events.append(.next($0)) },
            error: { outcome.events.append(.error(($0 as? TestError)?.code ?? -1)) },
            completed: { outcome.events.append(.completed) })
        for step in script.steps {
            switch step {
            case .send(let source, let event): subjects[source].send(event.runtimeEvent)
            case .disposeResult: disposable.dispose()
            }
        }
        return outcome
    }

    static func runModel(_ operation: Operation, _ script: Script) -> Outcome {
        var outcome = Outcome()
        let subjects = [ModelSubject(), ModelSubject()]
        let sources = script.sources.enumerated().map { index, source -> ModelSignal<Int> in
            guard source.isCold else { return subjects[index].signal }
            return ModelSignal { subscriber in
                outcome.subscriptions[index] += 1
                for event in source.prefix {
                    switch event {
                    case .next(let value): subscriber.sendNext(value)
                    case .error(let code): subscriber.sendError(code)
                    case .completed: subscriber.sendCompleted()
                    }
                }
                return subjects[index].signal.forward(to: subscriber)
            }
        }
        let disposable = operation.model(sources[0], sources[1]).subscribe(
            next: { outcome.events.append(.next($0)) }, error: { outcome.events.append(.error($0)) },
            completed: { outcome.events.append(.completed) })
        for step in script.steps {
            switch step {
            case .send(let source, let event): subjects[source].send(event)
            case .disposeResult: disposable.dispose()
            }
        }
        return outcome
    }

    static let scriptsPerOperation: UInt64 = 1_500

    @Test("O0, O38: the runtime delivers what the RAC 2 model delivers and subscribes as often, on random scripts",
          arguments: operations)
    func agreesWithTheModel(_ operation: Operation) {
        var disagreements = 0
        for seed in 1...Self.scriptsPerOperation {
            let script = Script(seed: seed)
            let runtime = Self.runRuntime(operation, script)
            let model = Self.runModel(operation, script)
            if runtime != model {
                disagreements += 1
                if disagreements <= 3 { Issue.record("\(operation.name), \(script)\n runtime \(runtime)\n model   \(model)") }
            }
        }
        #expect(disagreements == 0)
    }

    @Test("O38: the scripts reach the cases that matter: synchronous terminal prefixes, cold sources run more than once")
    func scriptsCoverTheInterestingCases() {
        let scripts = (1...Self.scriptsPerOperation).map { Script(seed: $0) }
        #expect(scripts.contains { $0.sources[0].isCold && $0.sources[0].prefix.contains(.error(1)) })
        #expect(scripts.contains { $0.steps.contains { if case .disposeResult = $0 { true } else { false } } })
        let retried = scripts.filter { script in
            Self.runRuntime(Self.operations.first { $0.name == "retry(2)" }!, script).subscriptions[0] > 1
        }
        #expect(!retried.isEmpty)
    }
}

extension ModelEvent {
    var runtimeEvent: Event<Int> {
        switch self {
        case .next(let value): .next(value)
        case .error(let code): .error(TestError(code: code))
        case .completed: .completed
        }
    }
}

/// A seeded generator (SplitMix64), so every script is reproducible from its seed.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
