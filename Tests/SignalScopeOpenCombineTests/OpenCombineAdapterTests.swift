#if OpenCombineAdapter
import Dispatch
import Foundation
import OpenCombine
import OpenCombineDispatch
import OpenCombineFoundation
import SignalScopeOpenCombine
import SignalScopeTools
import Testing

/// What the adapter makes of OpenCombine's introspection calls: subjects that end, causes
/// kept across hops, failures handled, cancellation as disposal, the hook on while something
/// records, sites named from return addresses. The leaks themselves, and their fixed twins,
/// are the Combine corpus's (`CombineCorpus.swift`).
@Suite("The OpenCombine adapter", .timeLimit(.minutes(10)))
struct OpenCombineAdapterTests {
    @Test("A subject's completion reaching its sink ends the subject's node; a subject never completed is not ended")
    func subjectsThatEnded() {
        var kept: [AnyCancellable] = []
        var alive: [AnyObject] = []
        let trace = Tracer.record {
            let finished = PassthroughSubject<String, Never>()
            let open = CurrentValueSubject<String, Never>("")
            kept.append(finished.sink { _ in })
            kept.append(open.sink { _ in })
            finished.send(completion: .finished)
            // Both alive at the end, which is when a node's end is judged.
            alive = [finished, open]
        }
        let subjects = trace.nodes.values.filter { $0.kind == .subject || $0.kind == .behaviorSubject }.sorted { $0.id < $1.id }
        #expect(subjects.map(\.name) == ["PassthroughSubject", "CurrentValueSubject"], "\(subjects)")
        #expect(subjects.map(\.terminatedAtEnd) == [true, false], "\(subjects)")
        withExtendedLifetime((kept, alive)) {}
    }

    @Test("I12: what a sink sends while it receives a value is caused by that value, across a map")
    func causesAcrossHops() throws {
        var cancellables = Set<AnyCancellable>()
        let trace = Tracer.record {
            let queries = PassthroughSubject<String, Never>()
            let results = PassthroughSubject<String, Never>()
            queries.map { "results for " + $0 }.sink { results.send($0) }.store(in: &cancellables)
            results.sink { _ in }.store(in: &cancellables)
            queries.send("swift")
        }
        let values = trace.records.filter { if case .next = $0.event { true } else { false } }
        // The query reaches map's subscriber, then the sink; the sink's send reaches the
        // results' sink: each caused by the one before.
        try #require(values.count == 3, "\(values)")
        #expect(trace.causes(of: values[0]).isEmpty, "sent from outside any delivery")
        #expect(trace.causes(of: values[1]).map(\.sequence) == [values[0].sequence])
        #expect(trace.causes(of: values[2]).map(\.sequence) == [values[1].sequence, values[0].sequence], "the chain of causes, nearest first")
        cancellables.removeAll()
    }

    @Test("Causes cross a scheduler: what receive(on:) and delay deliver later on a queue is caused by what each was given, in order; what debounce delivers, by the latest value before it")
    func causesAcrossSchedulers() throws {
        let queue = DispatchQueue(label: "results")
        let delivered = DispatchSemaphore(value: 0)
        var cancellables = Set<AnyCancellable>()
        let trace = Tracer.record {
            let queries = PassthroughSubject<String, Never>()
            for hop in [
                queries.map { $0.uppercased() }.receive(on: queue.ocombine).eraseToAnyPublisher(),
                queries.delay(for: .milliseconds(1), scheduler: queue.ocombine).eraseToAnyPublisher(),
            ] {
                hop.sink(receiveCompletion: { _ in delivered.signal() }, receiveValue: { _ in delivered.signal() }).store(in: &cancellables)
            }
            for query in ["a", "b", "c"] { queries.send(query) }
            queries.send(completion: .finished)
            for _ in 0..<8 { delivered.wait() }
        }
        for name in ["receiveOn", "delay"] {
            // The sink's subscription to the operator, and the operator's own subscriber's upstream.
            let hop = try #require(trace.nodes.values.first { $0.name == name })
            let downstream = try #require(trace.subscriptions.values.first { $0.node == hop.id })
            let inner = try #require(trace.subscriptions.values.first { $0.parent == downstream.id })
            func events(of subscription: SubscriptionID) -> [TraceRecord] {
                trace.records.filter { record in
                    switch record.event {
                    case .next(let id, _), .completed(let id): id == subscription
                    default: false
                    }
                }
            }
            let (went, came) = (events(of: inner.id), events(of: downstream.id))
            try #require(went.count == 4 && came.count == 4, "\(name): \(went) \(came)")
            for (cause, event) in zip(went, came) {
                #expect(trace.causes(of: event).first?.sequence == cause.sequence, "\(name): \(event) is caused by \(cause)")
            }
        }
        cancellables.removeAll()

        // A debounce delivers the value that settled: caused by it, not by those it replaced.
        let scheduler = ManualScheduler()
        let trace2 = Tracer.record(values: true) {
            let typed = PassthroughSubject<String, Never>()
            typed.debounce(for: .seconds(1), scheduler: scheduler).sink { _ in }.store(in: &cancellables)
            typed.send("s"); typed.send("sw")
            scheduler.advance()
            typed.send("swift")
            scheduler.advance()
        }
        let debounce = try #require(trace2.nodes.values.first { $0.name == "debounce" })
        let downstream = try #require(trace2.subscriptions.values.first { $0.node == debounce.id })
        let delivered2 = trace2.records.filter { if case .next(downstream.id, _) = $0.event { true } else { false } }
        let causes = delivered2.map { trace2.causes(of: $0).first.flatMap { cause in if case .next(_, let value) = cause.event { value } else { nil } } }
        #expect(causes == ["sw", "swift"], "\(causes)")
        cancellables.removeAll()
    }

    @Test("A failure a sink takes in receiveCompletion is handled: no unhandled-error")
    func failureHandled() throws {
        struct Offline: Error {}
        var failures = 0
        let trace = Tracer.record {
            let requests = PassthroughSubject<Int, Offline>()
            let cancellable = requests.sink(receiveCompletion: { if case .failure = $0 { failures += 1 } }, receiveValue: { _ in })
            requests.send(completion: .failure(Offline()))
            withExtendedLifetime(cancellable) {}
        }
        #expect(failures == 1)
        let analysis = trace.analyze()
        #expect(analysis.findings.isEmpty, "\(analysis.findings)")
        #expect(trace.records.contains { if case .error = $0.event { true } else { false } })
    }

    @Test("Cancelling disposes the chain: the sink's subscription explicitly, its upstream's after it")
    func cancellationDisposes() throws {
        var causes: [DisposalCause] = []
        let trace = Tracer.record {
            let subject = PassthroughSubject<Int, Never>()
            let cancellable = subject.map { $0 * 2 }.sink { _ in }
            cancellable.cancel()
        }
        for record in trace.records { if case .disposed(_, let cause) = record.event { causes.append(cause) } }
        #expect(causes == [.explicit, .upstream], "\(causes)")
        #expect(trace.analyze().findings.isEmpty)
    }

    @Test("A Deferred hands its subscriber to the publisher it makes: both subscriptions end when that one does, by completion or by cancelling")
    func deferredSubscriptionsEnd() throws {
        let trace = Tracer.record {
            let completed = Deferred { Just(1) }.sink { _ in }
            withExtendedLifetime(completed) {}
            let subject = PassthroughSubject<Int, Never>()
            let cancelled = Deferred { subject.map { $0 + 1 } }.sink { _ in }
            cancelled.cancel()
            // Erased: AnyPublisher passes the subscriber to what it wraps without subscribing it
            // (OpenCombine reports no subscribe for that): its box stands for the Deferred, and
            // nothing is left open either.
            let erased = Deferred { Just(2) }.eraseToAnyPublisher().sink { _ in }
            withExtendedLifetime(erased) {}
        }
        var disposed: [SubscriptionID: DisposalCause] = [:]
        for record in trace.records { if case .disposed(let id, let cause) = record.event { disposed[id] = cause } }
        let deferred = trace.subscriptions.values.filter { trace.nodes[$0.node]?.name == "Deferred" }.map(\.id).sorted()
        // The erased one is its box, which stands for the Deferred it wraps.
        #expect(deferred.count == 3)
        #expect(Set(trace.subscriptions.keys).subtracting(disposed.keys).isEmpty, "every subscription ends: \(trace.subscriptions.count) made, \(disposed.count) ended")
        // The sink subscribed to the Deferred: that is the subscription the program cancelled.
        #expect(deferred.map { disposed[$0] } == [.terminal, .explicit, .terminal], "\(deferred.map { disposed[$0] })")
        #expect(trace.analyze().findings.isEmpty)
    }

    @Test("A Deferred is one publisher in all its copies and a new one when made again; an erased publisher is its box")
    func publisherIdentity() throws {
        final class API { var fetches = 0 }
        let api = API()
        let page = 1
        // Captures two things, so that its context is its own (one capture would be the object).
        let factoryLine = #line + 1
        func request() -> Deferred<Just<Int>> { Deferred { [api, page] in api.fetches += page; return Just(api.fetches) } }
        var kept: [AnyCancellable] = []
        let trace = Tracer.record {
            let stored = request()
            kept += [stored.sink { _ in }, stored.sink { _ in }]
            kept += [request().sink { _ in }, request().sink { _ in }]
            let erased = request().eraseToAnyPublisher()
            kept += [erased.sink { _ in }, erased.eraseToAnyPublisher().sink { _ in }]
        }
        #expect(api.fetches == 6, "each subscription ran the factory")
        let deferred = trace.nodes.values.filter { $0.name == "Deferred" }
        var subscriptions: [NodeID: Int] = [:]
        for subscription in trace.subscriptions.values { subscriptions[subscription.node, default: 0] += 1 }
        // The stored one, the two made for one subscriber each, the erased one (its box).
        #expect(deferred.count == 4, "\(deferred)")
        #expect(deferred.map { subscriptions[$0.id] ?? 0 }.sorted() == [1, 1, 2, 2])
        #expect(deferred.allSatisfy { $0.traits.contains(.cold) })
        // Made where the factory was written.
        #expect(deferred.allSatisfy { $0.site.file.hasSuffix("OpenCombineAdapterTests.swift") && $0.site.line == factoryLine }, "\(deferred.map(\.site))")
        kept.removeAll()
    }

    @Test("Deferred { Future } subscribed by two consumers runs its request twice: repeated-cold-subscription, where the Deferred was made; shared, it runs once and nothing is found")
    func repeatedRequest() throws {
        final class Client: @unchecked Sendable { var requests = 0 }
        for sharing in [false, true] {
            let client = Client()
            let gate = DispatchSemaphore(value: 0)
            var kept: [AnyCancellable] = []
            let madeAt = #line + 2
            let trace = Tracer.record {
                let deferred = Deferred { [client, gate] in
                    Future<String, Never> { promise in
                        client.requests += 1
                        // The response arrives on another thread, as a network request's does.
                        nonisolated(unsafe) let respond = promise
                        DispatchQueue.global().async { respond(.success("Ada")); gate.signal() }
                    }
                }
                let profile = sharing ? deferred.share().eraseToAnyPublisher() : deferred.eraseToAnyPublisher()
                kept.append(profile.sink { _ in })
                kept.append(profile.sink { _ in })
                gate.wait()
                if !sharing { gate.wait() }
            }
            // Ground truth: the request ran once per consumer, or once.
            #expect(client.requests == (sharing ? 1 : 2))
            let findings = trace.analyze().findings
            if sharing {
                #expect(findings.isEmpty, "\(findings)")
            } else {
                #expect(findings.map(\.rule) == [.repeatedColdSubscription], "\(findings)")
                #expect(findings.first?.location.line == madeAt, "\(findings.map(\.location))")
            }
            kept.removeAll()
        }
    }

    @Test("A value or a completion a publisher sends its subscriber after finishing it breaks Combine's contract: event-after-terminal, at the line that sent it; a subject sent to after finishing does nothing, as Combine says")
    func eventAfterCompletion() throws {
        /// A publisher written by hand, as apps write one around a callback API, that sends
        /// once more after finishing.
        struct Countdown: OpenCombine.Publisher {
            typealias Output = Int
            typealias Failure = Never
            let sendsAfterFinishing: Bool
            func receive<S: OpenCombine.Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
                subscriber.receive(subscription: Subscriptions.empty)
                _ = subscriber.receive(1)
                subscriber.receive(completion: .finished)
                if sendsAfterFinishing { _ = subscriber.receive(0) }  // the late send: the finding's line
            }
        }
        let lateSend = #line - 3
        var received: [Int] = []
        let trace = Tracer.record {
            let cancellable = Countdown(sendsAfterFinishing: true).sink { received.append($0) }
            let subject = PassthroughSubject<Int, Never>()
            let listening = subject.sink { received.append($0) }
            subject.send(completion: .finished)
            subject.send(2)
            _ = Countdown(sendsAfterFinishing: false).sink { received.append($0) }
            withExtendedLifetime((cancellable, listening)) {}
        }
        // Ground truth: the sink ignores the late value, and the subject sends nothing after finishing.
        #expect(received == [1, 1])
        let findings = trace.analyze().findings
        #expect(findings.map(\.rule) == [.eventAfterTerminal], "\(findings)")
        #expect(findings.first?.location.line == lateSend, "\(findings.map(\.location))")
    }

    @Test("A subscriber that subscribes again while it receives its failure (retry) stays traced: its later failures are no events after its end")
    func retryResubscribes() {
        struct Offline: Error {}
        var attempts = 0
        var ended = false
        let trace = Tracer.record {
            let request = Deferred { () -> Fail<Int, Offline> in
                attempts += 1
                return Fail(error: Offline())
            }
            let cancellable = request.retry(3).sink(receiveCompletion: { _ in ended = true }, receiveValue: { _ in })
            withExtendedLifetime(cancellable) {}
        }
        // Ground truth: the first try and three retries, then the failure reached the sink.
        #expect(attempts == 4 && ended)
        #expect(trace.violations.isEmpty, "\(trace.violations)")
        #expect(trace.analyze().findings.isEmpty)
    }

    @Test("I15: demand as data: a sink asks once for any number; a subscriber that asks for one at a time is heard each time it asks")
    func demandRecorded() throws {
        let subscriber = OneAtATime()
        var kept: [AnyCancellable] = []
        let trace = Tracer.record {
            let subject = PassthroughSubject<Int, Never>()
            kept.append(subject.sink { _ in })
            subject.subscribe(subscriber)
            subject.send(1)
            subject.send(2)
            subject.send(completion: .finished)
        }
        #expect(subscriber.received == [1, 2])
        var demands: [SubscriptionID: [SubscriptionDemand]] = [:]
        for record in trace.records {
            guard case .extended(let event) = record.event, let asked = event.payload as? DemandRequested, let subscription = asked.subscription
            else { continue }
            demands[subscription, default: []].append(asked.demand)
        }
        #expect(demands.values.sorted { $0.count < $1.count } == [[.unlimited], [.max(1), .max(1), .max(1)]], "\(demands)")
        kept.removeAll()
    }

    @Test("I15: a subscriber that cancels its subscription while it receives a value asks for nothing more, whatever demand it returns")
    func noDemandAfterCancelling() throws {
        let subscriber = OneAtATime(cancellingOn: 2)
        let trace = Tracer.record {
            let subject = PassthroughSubject<Int, Never>()
            subject.subscribe(subscriber)
            for value in 1...3 { subject.send(value) }
        }
        // Ground truth: the cancellation inside the second value stopped the third.
        #expect(subscriber.received == [1, 2])
        var asked: [SubscriptionDemand] = []
        var disposed = false
        for record in trace.records {
            if case .disposed = record.event { disposed = true }
            guard case .extended(let event) = record.event, let demand = event.payload as? DemandRequested else { continue }
            #expect(!disposed, "demand recorded after the subscription was disposed")
            asked.append(demand.demand)
        }
        #expect(disposed)
        #expect(asked == [.max(1), .max(1)], "\(asked)")
    }

    @Test("A path through a sink names its closure as Combine users do (its receiveValue closure), and a subscriber's kept subscription by its property; the report's details panel names the closure alike")
    func pathsInCombineWords() throws {
        let (feed, titles) = (CombineCorpus.scenarios.first { $0.name == "sink { self } stored on self" }!.run(),
            CombineCorpus.scenarios.first { $0.name == "a subscriber subscribed directly and dropped, its subject never finished" }!.run())
        let lines = (feed.findings + titles.findings).flatMap(\.steps).map(\.description)
        #expect(lines.contains { $0.contains("keeps its receiveValue closure (SignalScopeOpenCombineTests/CombineCorpus.swift:") && $0.hasSuffix("which captures FeedViewModel") }, "\(lines)")
        #expect(lines.contains { $0.contains("keeps its status.subscribed, which captures PassthroughSubject") }, "\(lines)")
        // The same reference seen from what it holds, as the details panel lists who holds it.
        let held = feed.findings.flatMap(\.steps).flatMap(\.crossings).map { $0.relation.phrase(holder: "the sink").description }
        #expect(held.contains { $0.hasPrefix("captured by the receiveValue closure (SignalScopeOpenCombineTests/CombineCorpus.swift:") && $0.hasSuffix(" of the sink") },
            "\(held)")
    }

    @Test("Nodes and subscribers in OpenCombine's words: each one's type and the part it plays, beside its kind, in the trace and in the report")
    func libraryTypes() throws {
        final class Badge { var text = "" }
        let badge = Badge()
        var kept: [AnyCancellable] = []
        let trace = Tracer.record {
            let unread = CurrentValueSubject<Int, Never>(0)
            kept.append(unread.map { "\($0)" }.receive(on: ImmediateScheduler.shared).assign(to: \.text, on: badge))
            kept.append(Just(1).sink { _ in })
        }
        let types = trace.libraryTypes
        func described(_ kind: NodeKind, _ name: String) -> LibraryType? {
            trace.nodes.values.first { $0.kind == kind && $0.name == name }.flatMap { types[.node($0.id)] }
        }
        #expect(described(.behaviorSubject, "CurrentValueSubject") == LibraryType(name: "CurrentValueSubject", role: .subject))
        #expect(described(.operator, "map") == LibraryType(name: "Publishers.Map", role: .operator))
        #expect(described(.operator, "receiveOn") == LibraryType(name: "Publishers.ReceiveOn", role: .schedulerHop))
        #expect(described(.signal, "Just") == LibraryType(name: "Just", role: .source))
        let subscribers = Set(trace.subscriptions.keys.compactMap { types[.subscription($0)] }.map(\.role))
        #expect(subscribers.isSuperset(of: [.sink, .assignment, .subscriber]), "\(subscribers)")
        // The report's details panel says it too.
        let analysis = trace.analyze()
        let data = HTMLReport(trace: trace, analysis: analysis, graph: SignalGraph(trace: trace, report: analysis), graphSVG: nil, options: .init(title: "types")).data()
        #expect(data.contains(#""library":{"name":"Publishers.ReceiveOn","role":"scheduler hop"}"#), "\(data)")
        kept.removeAll()
    }

    @Test("A Timer publisher, cancelled: nothing found, though swift-corelibs-foundation keeps the timer (its own object, holding nothing of the program's); never cancelled, with the screen it was for gone: leaked-subscription")
    func timerPublisher() throws {
        var appWide = Set<AnyCancellable>()
        for cancels in [true, false] {
            weak var gone: TickingClock?
            var ticks = 0
            var line = 0
            let trace = Tracer.record {
                let clock = TickingClock()
                gone = clock
                if cancels { clock.start(keepingIn: &clock.cancellables) } else { clock.start(keepingIn: &appWide) }
                RunLoop.current.run(until: Date() + 0.05)
                (ticks, line) = (clock.ticks, clock.fixLine)
            }
            // Ground truth: the timer ticked, and the clock is freed either way.
            #expect(ticks > 0 && gone == nil)
            let findings = trace.analyze().findings
            if cancels {
                #expect(findings.isEmpty, "\(findings)")
            } else {
                #expect(findings.map(\.rule) == [.leakedSubscription] && findings.first?.location.line == line, "\(findings)")
            }
        }
        appWide.removeAll()
    }

    /// Whether it is off when nothing records is a property of the whole process, which tests
    /// beside this one change: `make bench-instructions` measures what OpenCombine costs with
    /// the adapter linked and nothing recording (`docs/performance.md`, "The OpenCombine adapter").
    @Test("I13: OpenCombine's hook is on while something records")
    func hookOnWhileRecording() {
        var during = false
        _ = Tracer.record { during = OpenCombineAdapter.shared.isEnabled }
        #expect(during)
    }

    @Test("I14: a site known by its return addresses is named by the innermost line somebody wrote outside the libraries, once the recording ends")
    func sitesKnownByCode() throws {
        let line = #line + 3
        let trace = Tracer.record {
            let subject = CurrentValueSubject<Int, Never>(1)
            let cancellable = subject.filter { $0 > 0 }.map { $0 + 1 }.sink { _ in }
            withExtendedLifetime(cancellable) {}
        }
        // The sink, and the filter and map its subscribe subscribed, are all where the user
        // called sink: OpenCombine's frames and the adapter's are never a site.
        let sites = Set(trace.subscriptions.values.map(\.site))
        #expect(sites.count == 1, "\(sites)")
        let site = try #require(sites.first)
        #expect(site.file == "SignalScopeOpenCombineTests/OpenCombineAdapterTests.swift" && site.line == line, "\(site)")
        #expect(site.function.contains("sitesKnownByCode"), "\(site)")
        #expect(trace.subscriptions.count == 3)
    }

    @Test("An operator given a closure is located where the closure was written, the line that applied it; one given none, where its chain was subscribed")
    func operatorLines() throws {
        var kept: [AnyCancellable] = []
        var lines: [String: Int] = [:]
        let trace = Tracer.record {
            let queries = PassthroughSubject<String, Never>()
            lines["map"] = #line + 1
            let trimmed = queries.map { $0.trimmingCharacters(in: .whitespaces) }
            lines["filter"] = #line + 1
            let nonEmpty = trimmed.filter { [minimum = 1] in $0.count >= minimum }
            lines["sink"] = #line + 1
            kept.append(nonEmpty.receive(on: ImmediateScheduler.shared).sink { _ in })
        }
        func line(of name: String) -> Int? { trace.nodes.values.first { $0.name == name }?.site.line }
        #expect(line(of: "map") == lines["map"], "a closure that captures nothing")
        #expect(line(of: "filter") == lines["filter"], "a closure with a capture")
        #expect(line(of: "receiveOn") == lines["sink"], "no closure: where the chain was subscribed")
        kept.removeAll()
    }
}

/// A screen's clock, ticking on a timer publisher.
final class TickingClock {
    var ticks = 0
    var cancellables = Set<AnyCancellable>()
    var fixLine = 0

    func start(keepingIn keeper: inout Set<AnyCancellable>) {
        fixLine = #line; Timer.publish(every: 0.005, on: .current, in: .default).autoconnect().sink { [weak self] (_: Date) in self?.ticks += 1 }.store(in: &keeper)
    }
}

/// A scheduler whose time moves only when the test says: `advance()` runs every action due by
/// the latest time asked for, as a run loop would once it is due.
private final class ManualScheduler: OpenCombine.Scheduler, @unchecked Sendable {
    typealias SchedulerTimeType = DispatchQueue.OCombine.SchedulerTimeType
    typealias SchedulerOptions = Never
    private struct Action: Cancellable {
        let id: Int
        weak var scheduler: ManualScheduler?
        func cancel() { scheduler?.actions.removeAll { $0.id == id } }
    }
    private var actions: [(id: Int, due: SchedulerTimeType, run: () -> Void)] = []
    private var count = 0
    private(set) var now = SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1))
    var minimumTolerance: SchedulerTimeType.Stride { .zero }

    func schedule(options: Never?, _ action: @escaping () -> Void) { _ = add(now, action) }
    func schedule(after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?, _ action: @escaping () -> Void) {
        _ = add(date, action)
    }
    func schedule(after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
                  options: Never?, _ action: @escaping () -> Void) -> Cancellable {
        add(date, action)
    }

    private func add(_ due: SchedulerTimeType, _ action: @escaping () -> Void) -> Cancellable {
        count += 1
        actions.append((count, due, action))
        return Action(id: count, scheduler: self)
    }

    /// Moves time to the latest action's due time and runs what is due, in order.
    func advance() {
        guard let latest = actions.map(\.due).max() else { return }
        now = latest
        while let next = actions.filter({ $0.due <= now }).min(by: { $0.due < $1.due || ($0.due == $1.due && $0.id < $1.id) }) {
            actions.removeAll { $0.id == next.id }
            next.run()
        }
    }
}

/// A subscriber that asks for one value at a time, as it subscribes and with each value it
/// receives; given `cancellingOn`, it cancels its subscription when it receives that value
/// (and still returns its demand).
private final class OneAtATime: OpenCombine.Subscriber {
    typealias Input = Int
    typealias Failure = Never
    private(set) var received: [Int] = []
    private let cancellingOn: Int?
    private var subscription: (any OpenCombine.Subscription)?

    init(cancellingOn: Int? = nil) { self.cancellingOn = cancellingOn }

    func receive(subscription: any OpenCombine.Subscription) {
        self.subscription = subscription
        subscription.request(.max(1))
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        received.append(input)
        if input == cancellingOn { subscription?.cancel() }
        return .max(1)
    }

    func receive(completion: Subscribers.Completion<Never>) {}
}
#endif
