// A small reference model of RAC 2.5's signals, written from its documentation and headers
// (ReactiveCocoa 2.5: RACSignal.h, RACSignal+Operations.h, RACSubject.h, RACDisposable.h,
// RACSubscriber.h, and Documentation/DesignGuidelines.md), independent of SignalScope's
// runtime: single-threaded, no schedulers, no instrumentation. The differential test runs
// the same random scripts through both and compares what reaches the result and how often
// each source was subscribed.
//
// Where SignalScope deliberately differs from RAC 2, the model follows SignalScope's
// documented rule and says so: J3 (a terminated subject sends its terminal event to late
// subscribers) and O38 (an operator's subscriptions are held by its result before they
// start, which RAC 2 does in `-bind:` and `-takeUntil:` and SignalScope does everywhere).

/// RACDisposable / RACCompoundDisposable: disposing runs the action once and disposes the
/// children; adding to a disposed one disposes the child at once.
final class ModelDisposable {
    private(set) var isDisposed = false
    private var action: (() -> Void)?
    private var children: [ModelDisposable] = []

    init(_ action: (() -> Void)? = nil) {
        self.action = action
    }

    func add(_ child: ModelDisposable?) {
        guard let child else { return }
        if isDisposed { child.dispose() } else { children.append(child) }
    }

    func dispose() {
        guard !isDisposed else { return }
        isDisposed = true
        action?()
        action = nil
        let taken = children
        children = []
        for child in taken { child.dispose() }
    }
}

/// What reaches a subscriber: "DesignGuidelines.md, The RACSignal contract": `next*` then at
/// most one of `error`/`completed`; after a terminal event, and after disposal, nothing.
enum ModelEvent: Hashable, CustomStringConvertible {
    case next(Int)
    case error(Int)
    case completed

    var description: String {
        switch self {
        case .next(let value): "\(value)"
        case .error(let code): "error(\(code))"
        case .completed: "completed"
        }
    }
}

/// RACPassthroughSubscriber over RACSubscriber: events stop once the subscription's
/// disposable is disposed, and a terminal event disposes it before the handler runs
/// (RACSubscriber's -sendError: and -sendCompleted:).
final class ModelSubscriber<Value> {
    let disposable = ModelDisposable()
    private let onNext: (Value) -> Void
    private let onError: (Int) -> Void
    private let onCompleted: () -> Void

    init(next: @escaping (Value) -> Void, error: @escaping (Int) -> Void, completed: @escaping () -> Void) {
        onNext = next
        onError = error
        onCompleted = completed
    }

    func sendNext(_ value: Value) {
        if !disposable.isDisposed { onNext(value) }
    }

    func sendError(_ code: Int) {
        guard !disposable.isDisposed else { return }
        disposable.dispose()
        onError(code)
    }

    func sendCompleted() {
        guard !disposable.isDisposed else { return }
        disposable.dispose()
        onCompleted()
    }
}

/// RACDynamicSignal: `+createSignal:` runs its block for every subscription.
struct ModelSignal<Value> {
    let didSubscribe: (ModelSubscriber<Value>) -> ModelDisposable?

    /// Subscribes on behalf of `owner`, which holds the subscription before the block runs;
    /// nothing is subscribed once `owner` is disposed (RAC `-bind:` checks
    /// `compoundDisposable.disposed` before every step; SignalScope rule O38 everywhere).
    @discardableResult
    func subscribe(
        owner: ModelDisposable? = nil,
        next: @escaping (Value) -> Void, error: @escaping (Int) -> Void, completed: @escaping () -> Void
    ) -> ModelDisposable {
        if let owner, owner.isDisposed { return owner }
        let subscriber = ModelSubscriber(next: next, error: error, completed: completed)
        owner?.add(subscriber.disposable)
        if !subscriber.disposable.isDisposed { subscriber.disposable.add(didSubscribe(subscriber)) }
        return subscriber.disposable
    }

    /// `-subscribe:` with another subscriber as the target, held by it.
    @discardableResult
    func forward(to target: ModelSubscriber<Value>) -> ModelDisposable {
        subscribe(owner: target.disposable, next: target.sendNext, error: target.sendError, completed: target.sendCompleted)
    }

    static func just(_ value: Value) -> ModelSignal {
        ModelSignal { subscriber in
            subscriber.sendNext(value)
            subscriber.sendCompleted()
            return nil
        }
    }
}

/// RACSubject: sends each event to the subscribers it has at the time. Late subscribers of
/// a terminated subject get its terminal event at once (SignalScope rule J3; RAC 2 keeps
/// them silently).
final class ModelSubject {
    private var subscribers: [(id: Int, subscriber: ModelSubscriber<Int>)] = []
    private var terminal: ModelEvent?
    private var nextID = 0

    var signal: ModelSignal<Int> {
        ModelSignal { subscriber in
            if let terminal = self.terminal {
                if case .error(let code) = terminal { subscriber.sendError(code) } else { subscriber.sendCompleted() }
                return nil
            }
            self.nextID += 1
            let id = self.nextID
            self.subscribers.append((id, subscriber))
            return ModelDisposable { self.subscribers.removeAll { $0.id == id } }
        }
    }

    func send(_ event: ModelEvent) {
        guard terminal == nil else { return }
        if case .next = event {} else { terminal = event }
        let current = subscribers
        if terminal != nil { subscribers = [] }
        for (_, subscriber) in current {
            switch event {
            case .next(let value): subscriber.sendNext(value)
            case .error(let code): subscriber.sendError(code)
            case .completed: subscriber.sendCompleted()
            }
        }
    }
}

/// The operators, from RAC 2.5's RACSignal+Operations.h and RACSignal.h. Each is written
/// from its documented behaviour, not from SignalScope's code.
extension ModelSignal where Value == Int {
    /// `-bind:` as `-flattenMap:` uses it: merges the signals the block returns; completes
    /// when the source and all of them have; any error ends everything.
    func flattenMap(_ transform: @escaping (Int) -> ModelSignal<Int>) -> ModelSignal<Int> {
        ModelSignal { subscriber in
            let all = ModelDisposable()
            subscriber.disposable.add(all)
            var active = 1
            func completeOne() {
                active -= 1
                if active == 0 { subscriber.sendCompleted() }
            }
            self.subscribe(
                owner: all,
                next: { value in
                    guard !all.isDisposed else { return }
                    active += 1
                    transform(value).subscribe(
                        owner: all, next: subscriber.sendNext, error: subscriber.sendError, completed: completeOne)
                },
                error: subscriber.sendError, completed: completeOne)
            return nil
        }
    }

    /// `-map:`, `-filter:`, `-scanWithStart:reduce:`, `-skip:`, `-skipWhileBlock:`,
    /// `-distinctUntilChanged`: one source, values passed on by a stateful step that
    /// returns what to send (RAC implements them on `-bind:` with `+return:`/`+empty`).
    func stage(_ makeStep: @escaping () -> (Int) -> [Int]) -> ModelSignal<Int> {
        ModelSignal { subscriber in
            let step = makeStep()
            self.subscribe(
                owner: subscriber.disposable,
                next: { value in for output in step(value) { subscriber.sendNext(output) } },
                error: subscriber.sendError, completed: subscriber.sendCompleted)
            return nil
        }
    }

    /// `-take:`: the first `count` values, then completed; `take:0` is `+empty`.
    func take(_ count: Int) -> ModelSignal<Int> {
        ModelSignal { subscriber in
            guard count > 0 else {
                subscriber.sendCompleted()
                return nil
            }
            var taken = 0
            self.subscribe(
                owner: subscriber.disposable,
                next: { value in
                    taken += 1
                    subscriber.sendNext(value)
                    if taken == count { subscriber.sendCompleted() }
                },
                error: subscriber.sendError, completed: subscriber.sendCompleted)
            return nil
        }
    }

    /// `-takeWhileBlock:`: values while the predicate holds; completes at the first that
    /// fails, without sending it.
    func takeWhile(_ predicate: @escaping (Int) -> Bool) -> ModelSignal<Int> {
        ModelSignal { subscriber in
            self.subscribe(
                owner: subscriber.disposable,
                next: { value in
                    if predicate(value) { subscriber.sendNext(value) } else { subscriber.sendCompleted() }
                },
                error: subscriber.sendError, completed: subscriber.sendCompleted)
            return nil
        }
    }

    /// `-concat:`: this signal's events, then, at its completion, the other's.
    func concat(_ other: ModelSignal<Int>) -> ModelSignal<Int> {
        ModelSignal { subscriber in
            self.subscribe(
                owner: subscriber.disposable, next: subscriber.sendNext, error: subscriber.sendError,
                completed: { other.forward(to: subscriber) })
            return nil
        }
    }

    /// `-merge:`: both signals' values; completes when both have; the first error ends it.
    func merge(_ other: ModelSignal<Int>) -> ModelSignal<Int> {
        ModelSignal { subscriber in
            var active = 2
            for signal in [self, other] {
                signal.subscribe(
                    owner: subscriber.disposable, next: subscriber.sendNext, error: subscriber.sendError,
                    completed: {
                        active -= 1
                        if active == 0 { subscriber.sendCompleted() }
                    })
            }
            return nil
        }
    }

    /// `-takeUntil:`: subscribes the trigger first; its next or completed completes the
    /// result (its error is ignored); the source is not subscribed if that already happened.
    func takeUntil(_ trigger: ModelSignal<Int>) -> ModelSignal<Int> {
        ModelSignal { subscriber in
            trigger.subscribe(
                owner: subscriber.disposable, next: { _ in subscriber.sendCompleted() }, error: { _ in },
                completed: subscriber.sendCompleted)
            self.forward(to: subscriber)
            return nil
        }
    }

    /// `-sample:`: subscribes the source, then the sampler; each sampler value sends the
    /// source's latest value, if it has sent one; either one's completion completes the
    /// result and either one's error fails it.
    func sample(_ sampler: ModelSignal<Int>) -> ModelSignal<Int> {
        ModelSignal { subscriber in
            var latest: Int?
            self.subscribe(
                owner: subscriber.disposable, next: { latest = $0 }, error: subscriber.sendError,
                completed: subscriber.sendCompleted)
            sampler.subscribe(
                owner: subscriber.disposable, next: { _ in if let latest { subscriber.sendNext(latest) } },
                error: subscriber.sendError, completed: subscriber.sendCompleted)
            return nil
        }
    }

    /// `-catchTo:`: on error, the replacement's events instead.
    func catchTo(_ replacement: ModelSignal<Int>) -> ModelSignal<Int> {
        ModelSignal { subscriber in
            self.subscribe(
                owner: subscriber.disposable, next: subscriber.sendNext,
                error: { _ in replacement.forward(to: subscriber) }, completed: subscriber.sendCompleted)
            return nil
        }
    }

    /// `-retry:`: subscribes again after an error, at most `count` times (`retry:0` without
    /// limit), then passes the error on.
    func retry(_ count: Int) -> ModelSignal<Int> {
        ModelSignal { subscriber in
            var retries = 0
            func subscribeOnce() {
                self.subscribe(
                    owner: subscriber.disposable, next: subscriber.sendNext,
                    error: { code in
                        guard count == 0 || retries < count else { return subscriber.sendError(code) }
                        retries += 1
                        subscribeOnce()
                    },
                    completed: subscriber.sendCompleted)
            }
            subscribeOnce()
            return nil
        }
    }

    /// `-zipWith:`: pairs values in order (here summed); completes when a completed side
    /// has no unpaired value left.
    func zip(_ other: ModelSignal<Int>) -> ModelSignal<Int> {
        ModelSignal { subscriber in
            var queues: [[Int]] = [[], []]
            var done = [false, false]
            func flush() {
                while !queues[0].isEmpty, !queues[1].isEmpty {
                    subscriber.sendNext(queues[0].removeFirst() + queues[1].removeFirst())
                }
                if (done[0] && queues[0].isEmpty) || (done[1] && queues[1].isEmpty) { subscriber.sendCompleted() }
            }
            for (index, signal) in [self, other].enumerated() {
                signal.subscribe(
                    owner: subscriber.disposable,
                    next: { value in
                        queues[index].append(value)
                        flush()
                    },
                    error: subscriber.sendError,
                    completed: {
                        done[index] = true
                        flush()
                    })
            }
            return nil
        }
    }

    /// `-combineLatestWith:`: the latest of both (here summed) whenever either sends, once
    /// both have; completes when both have.
    func combineLatest(_ other: ModelSignal<Int>) -> ModelSignal<Int> {
        ModelSignal { subscriber in
            var latest: [Int?] = [nil, nil]
            var active = 2
            for (index, signal) in [self, other].enumerated() {
                signal.subscribe(
                    owner: subscriber.disposable,
                    next: { value in
                        latest[index] = value
                        if let first = latest[0], let second = latest[1] { subscriber.sendNext(first + second) }
                    },
                    error: subscriber.sendError,
                    completed: {
                        active -= 1
                        if active == 0 { subscriber.sendCompleted() }
                    })
            }
            return nil
        }
    }

    /// `-switchToLatest` (of the signals `transform` maps values to): only the latest inner
    /// signal's values; completes when the source and the latest inner signal have.
    func switchMap(_ transform: @escaping (Int) -> ModelSignal<Int>) -> ModelSignal<Int> {
        ModelSignal { subscriber in
            var current: ModelDisposable?
            var generation = 0
            var outerDone = false
            var innerActive = false
            self.subscribe(
                owner: subscriber.disposable,
                next: { value in
                    current?.dispose()
                    generation += 1
                    let mine = generation
                    innerActive = true
                    let holder = ModelDisposable()
                    current = holder
                    subscriber.disposable.add(holder)
                    transform(value).subscribe(
                        owner: holder, next: subscriber.sendNext, error: subscriber.sendError,
                        completed: {
                            guard mine == generation else { return }
                            innerActive = false
                            if outerDone { subscriber.sendCompleted() }
                        })
                },
                error: subscriber.sendError,
                completed: {
                    outerDone = true
                    if !innerActive { subscriber.sendCompleted() }
                })
            return nil
        }
    }

    /// `-takeLast:`, `-collect`, `-aggregateWithStart:reduce:`: what to send at completion,
    /// from all the values.
    func atCompletion(_ result: @escaping ([Int]) -> [Int]) -> ModelSignal<Int> {
        ModelSignal { subscriber in
            var values: [Int] = []
            self.subscribe(
                owner: subscriber.disposable, next: { values.append($0) }, error: subscriber.sendError,
                completed: {
                    for value in result(values) { subscriber.sendNext(value) }
                    subscriber.sendCompleted()
                })
            return nil
        }
    }
}
