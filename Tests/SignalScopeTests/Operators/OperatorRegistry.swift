import Foundation
import SignalScopeTools
import Testing

/// Every public operator of `Sources/SignalScope/Operators`, by selector (`static ` for
/// the static ones): how to apply it to one `Int` source, which is how the contract tests
/// (rule O0), the synchronous-end tests (O38) and the differential test enumerate
/// operators, or why it has none. `everyOperatorIsRegistered` reads the sources, so an
/// operator added without an entry fails the suite instead of going untested.
enum OperatorRegistry {
    typealias Case = OperatorContractTests.Case

    enum Use {
        /// Applies the operator (with whatever it needs besides the source) to one source.
        case applied(@Sendable (Signal<Int>, TestScheduler) -> Signal<Int>)
        /// Applies an operator that handles the source's errors itself.
        case recovering(@Sendable (Signal<Int>, TestScheduler) -> Signal<Int>)
        /// Not applicable to one source, and why.
        case exempt(String)
    }

    static let entries: KeyValuePairs<String, Use> = [
        "map(_:)": .applied { source, _ in source.map { $0 + 1 } },
        "mapReplace(_:)": .applied { source, _ in source.mapReplace(0) },
        "filter(_:)": .applied { source, _ in source.filter { _ in true } },
        "ignore(_:)": .applied { source, _ in source.ignore(7) },
        "ignoreValues()": .applied { source, _ in source.ignoreValues() },
        "flattenMap(_:)": .applied { source, scheduler in
            source.flattenMap { scheduler.createColdSignal([.next(1, $0)]).signal }
        },
        "flatten()": .applied { source, scheduler in
            source.map { scheduler.createColdSignal([.next(1, $0)]).signal }.flatten()
        },
        "concat()": .applied { source, scheduler in
            source.map { scheduler.createColdSignal([.next(1, $0)]).signal }.concat()
        },
        "switchToLatest()": .applied { source, scheduler in
            source.map { scheduler.createColdSignal([.next(1, $0)]).signal }.switchToLatest()
        },
        "bind(_:)": .applied { source, _ in source.bind { { value, _ in .just(value) } } },
        "concat(_:)": .applied { source, _ in source.concat(.just(0)) },
        "startWith(_:)": .applied { source, _ in source.startWith(0) },
        "then(_:)": .applied { source, _ in source.then { .just(0) } },
        "take(_:)": .applied { source, _ in source.take(5) },
        "takeUntil(_:)": .applied { source, _ in source.takeUntil(Signal<Void>.never()) },
        "takeLast(_:)": .applied { source, _ in source.takeLast(1) },
        "skip(_:)": .applied { source, _ in source.skip(1) },
        "takeWhile(_:)": .applied { source, _ in source.takeWhile { _ in true } },
        "skipWhile(_:)": .applied { source, _ in source.skipWhile { _ in true } },
        "distinctUntilChanged()": .applied { source, _ in source.distinctUntilChanged() },
        "distinctUntilChanged(by:)": .applied { source, _ in source.distinctUntilChanged { $0 == $1 } },
        "skipNil()": .applied { source, _ in source.map { $0 as Int? }.skipNil() },
        "sample(on:)": .applied { source, _ in source.sample(on: Signal<Void>.never()) },
        "withLatest(from:)": .applied { source, _ in source.withLatest(from: .just(0)).map { $0.0 } },
        "values()": .applied { source, _ in source.map { Event.next($0) }.values() },
        "errors()": .applied { source, _ in source.map { _ in Event<Int>.error(TestError(code: 1)) }.errors().map { _ in 0 } },
        "completions()": .applied { source, _ in source.map { _ in Event<Int>.completed }.completions().map { 0 } },
        "share()": .applied { source, _ in source.share() },
        "assign(to:on:)": .exempt("a binding that returns a disposable, not a stage: tested with its own rule (O43)"),
        "scan(_:_:)": .applied { source, _ in source.scan(0) { $0 + $1 } },
        "aggregate(_:_:)": .applied { source, _ in source.aggregate(0) { $0 + $1 } },
        "collect()": .applied { source, _ in source.collect().map(\.count) },
        "merge(_:)": .applied { source, _ in source.merge(.never()) },
        "static merge(_:)": .applied { source, _ in Signal.merge([source, .never()]) },
        "zip(with:)": .applied { source, _ in source.zip(with: Signal<Int>.never()).map { $0.0 } },
        "static zip(_:_:)": .applied { source, _ in Signal.zip(source, Signal<Int>.never()).map { $0.0 } },
        "static zip(_:_:_:)": .applied { source, _ in Signal.zip(source, Signal<Int>.never(), Signal<Int>.never()).map { $0.0 } },
        "static zip(_:_:_:_:)": .applied { source, _ in
            Signal.zip(source, Signal<Int>.never(), Signal<Int>.never(), Signal<Int>.never()).map { $0.0 }
        },
        "static zip(_:_:_:_:_:)": .applied { source, _ in
            Signal.zip(source, Signal<Int>.never(), Signal<Int>.never(), Signal<Int>.never(), Signal<Int>.never()).map { $0.0 }
        },
        "static zip(_:_:_:_:_:_:)": .applied { source, _ in
            Signal.zip(source, Signal<Int>.never(), Signal<Int>.never(), Signal<Int>.never(), Signal<Int>.never(), Signal<Int>.never())
                .map { $0.0 }
        },
        "static zip(_:)": .applied { source, _ in Signal.zip([source, .never()]).map { $0[0] } },
        "static combineLatest(_:_:)": .applied { source, _ in Signal.combineLatest(source, .just(0)).map { $0.0 } },
        "static combineLatest(_:_:_:)": .applied { source, _ in Signal.combineLatest(source, .just(0), .just(0)).map { $0.0 } },
        "static combineLatest(_:_:_:_:)": .applied { source, _ in
            Signal.combineLatest(source, .just(0), .just(0), .just(0)).map { $0.0 }
        },
        "static combineLatest(_:_:_:_:_:)": .applied { source, _ in
            Signal.combineLatest(source, .just(0), .just(0), .just(0), .just(0)).map { $0.0 }
        },
        "static combineLatest(_:_:_:_:_:_:)": .applied { source, _ in
            Signal.combineLatest(source, .just(0), .just(0), .just(0), .just(0), .just(0)).map { $0.0 }
        },
        "static combineLatest(_:)": .applied { source, _ in Signal.combineLatest([source, .just(0)]).map { $0[0] } },
        "delay(_:on:)": .applied { source, scheduler in source.delay(0.5, on: scheduler) },
        "throttle(_:on:)": .applied { source, scheduler in source.throttle(0.5, on: scheduler) },
        "timeout(_:on:)": .applied { source, scheduler in source.timeout(100, on: scheduler) },
        "deliver(on:)": .applied { source, scheduler in source.deliver(on: scheduler) },
        "subscribe(on:)": .applied { source, scheduler in source.subscribe(on: scheduler) },
        "catch(_:)": .applied { source, _ in source.catch { .error($0) } },
        "catchTo(_:)": .applied { source, _ in source.catchTo(source) },
        "retry()": .recovering { source, _ in source.retry() },
        "retry(_:)": .applied { source, _ in source.retry(1) },
        "doNext(_:)": .applied { source, _ in source.doNext { _ in } },
        "doError(_:)": .applied { source, _ in source.doError { _ in } },
        "doCompleted(_:)": .applied { source, _ in source.doCompleted {} },
        "materialize()": .applied { source, _ in source.materialize().dematerialize() },
        "dematerialize()": .applied { source, _ in source.materialize().dematerialize() },
        "not()": .applied { source, _ in source.map { $0 > 0 }.not().map { $0 ? 1 : 0 } },
        "and()": .applied { source, _ in source.map { [$0 > 0, true] }.and().map { $0 ? 1 : 0 } },
        "or()": .applied { source, _ in source.map { ($0 > 0, false) }.or().map { $0 ? 1 : 0 } },
        "static if(_:then:else:)": .applied { source, _ in Signal.if(.just(true), then: source, else: .never()) },
        "log(_:to:)": .applied { source, _ in source.log(to: { _ in }) },
        "named(_:)": .applied { source, _ in source.named("source") },
        "static defer(_:)": .applied { source, _ in Signal.defer { source } },
        "publish()": .applied { source, _ in source.publish().autoconnect() },
        "multicast(_:)": .applied { source, _ in source.multicast(Subject()).autoconnect() },
        "autoconnect()": .applied { source, _ in source.publish().autoconnect() },
        "connect()": .exempt("a MulticastConnection's method, not a stage: connecting outlives any one subscriber (O30)"),
        "replay()": .exempt("connects at once, so the source subscription belongs to the connection, not to a subscriber (O32)"),
        "replayLast()": .exempt("connects at once, like replay() (O32)"),
        "replayLazily()": .exempt("its connection outlives the first subscriber by design (O32)"),
        "static interval(_:on:)": .exempt("a source: it has no upstream to forward (O21)"),
    ]

    /// Operators whose first value does not reach the result while the source is still
    /// sending it (the synchronous-end test needs one that does).
    static let holdsFirstValueBack: Set<String> = [
        // They hold values back: until completion, a delay, a scheduler, the next value.
        "takeLast(_:)", "aggregate(_:_:)", "collect()", "delay(_:on:)", "throttle(_:on:)", "deliver(on:)",
        "subscribe(on:)", "then(_:)", "ignoreValues()", "skip(_:)", "skipWhile(_:)",
        // Their values come from inner signals on the test scheduler.
        "concat()", "flattenMap(_:)", "flatten()", "switchToLatest()",
        // A row needs a value from an input subscribed after this source.
        "zip(with:)", "static zip(_:_:)", "static zip(_:)", "static combineLatest(_:_:)", "static combineLatest(_:)",
        "static zip(_:_:_:)", "static zip(_:_:_:_:)", "static zip(_:_:_:_:_:)", "static zip(_:_:_:_:_:_:)",
        "static combineLatest(_:_:_:)", "static combineLatest(_:_:_:_:)", "static combineLatest(_:_:_:_:_:)",
        "static combineLatest(_:_:_:_:_:_:)",
        // Values are sent only when the trigger sends.
        "sample(on:)",
        // The branch is chosen by a condition subscribed first.
        "static if(_:then:else:)",
    ]

    static let contractCases: [Case] = entries.compactMap { selector, use in
        switch use {
        case .applied(let apply): Case(selector, apply)
        case .recovering(let apply): Case(selector, forwardsErrors: false, apply)
        case .exempt: nil
        }
    }

    /// The selectors of the public functions declared under `Sources/SignalScope/Operators`.
    static func declaredOperators() throws -> Set<String> {
        let folder = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/SignalScope/Operators")
        var selectors: Set<String> = []
        for file in try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
        where file.pathExtension == "swift" {
            selectors.formUnion(Self.selectors(in: try String(contentsOf: file, encoding: .utf8)))
        }
        return selectors
    }

    /// `public func take(_ count: Int, file: ...)` as `take(_:)`: the argument labels, without
    /// the call-site parameters every operator has.
    static func selectors(in source: String) -> [String] {
        let declaration = /public (static )?func `?(\w+)`?(<[^>]*>)?\(/
        return source.matches(of: declaration).map { match in
            // Commas inside brackets and generic arguments (`KeyPath<Root, Value>`) do not
            // separate parameters; the `>` of an arrow closes nothing.
            var depth = 1
            var index = match.range.upperBound
            var parameters = ""
            var previous: Character = " "
            while depth > 0, index < source.endIndex {
                let character = source[index]
                if character == "(" || character == "[" || character == "<" { depth += 1 }
                if character == ")" || character == "]" || (character == ">" && previous != "-") { depth -= 1 }
                if depth > 0 { parameters.append(depth == 1 ? character : " ") }
                previous = character
                index = source.index(after: index)
            }
            let labels = parameters.split(separator: ",").compactMap { parameter -> String? in
                let label = parameter.split(separator: ":").first?.split(whereSeparator: \.isWhitespace).first.map(String.init)
                guard let label, !["file", "line", "function"].contains(label) else { return nil }
                return label + ":"
            }
            return (match.output.1 == nil ? "" : "static ") + match.output.2 + "(" + labels.joined() + ")"
        }
    }
}

@Suite("Operators: the registry", .timeLimit(.minutes(10)))
struct OperatorRegistryTests {
    @Test("O0: every public operator has a registry entry, and every entry is a real operator")
    func everyOperatorIsRegistered() throws {
        let declared = try OperatorRegistry.declaredOperators()
        let registered = Set(OperatorRegistry.entries.map(\.key))
        #expect(declared.count > 50, "the sources were read: \(declared.sorted())")
        #expect(declared.subtracting(registered).isEmpty, "operators with no entry: \(declared.subtracting(registered).sorted())")
        #expect(registered.subtracting(declared).isEmpty, "entries for no operator: \(registered.subtracting(declared).sorted())")
        #expect(registered.count == OperatorRegistry.entries.count, "each selector once")
        #expect(OperatorRegistry.holdsFirstValueBack.isSubset(of: registered))
    }

    @Test("O0: selectors are read with their labels, without the call-site parameters")
    func selectorsAreRead() {
        let source = """
            public func take(_ count: Int, file: StaticString = #fileID, line: UInt = #line) -> Signal<Value> {}
            public static func zip<A, B>(_ a: Signal<A>, _ b: Signal<B>, function: StaticString = #function) {}
            public func bind<Output>(_ make: @escaping () -> (Value, inout Bool) -> Signal<Output>?) {}
            public func deliver(on scheduler: any Scheduler) {}
            public func assign<Root>(to keyPath: ReferenceWritableKeyPath<Root, Value>, on object: Root) {}
            """
        #expect(OperatorRegistry.selectors(in: source) == ["take(_:)", "static zip(_:_:)", "bind(_:)", "deliver(on:)", "assign(to:on:)"])
    }
}
