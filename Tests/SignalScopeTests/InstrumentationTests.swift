import Foundation
import SignalScopeTools
import SignalScopeTesting
import Synchronization
import Testing

/// Hooks are global, so every test looks only at the nodes and subscriptions it made itself:
/// other tests may have hooks installed at the same time.
@Suite("Instrumentation seam", .serialized, .timeLimit(.minutes(10)))
struct InstrumentationTests {
    private static let file = "SignalScopeTests/InstrumentationTests.swift"

    @Test("I1: an uninstalled hook hears nothing of what is created afterwards")
    func nothingAfterUninstall() {
        let spy = RecordingInstrumentation.recording {}
        let signal = Signal<Int> { subscriber in
            subscriber.sendNext(1)
            subscriber.sendCompleted()
            return nil
        }
        signal.subscribe()
        #expect(!spy.nodes.contains { $0.id == signal.id })
        #expect(spy.subscriptions(of: signal.id).isEmpty)
    }

    @Test("I8: values stop reaching a hook once its activity stops; a hook with none keeps hearing them after it is uninstalled")
    func activity() {
        func values(reaching hook: RecordingInstrumentation, stop: () -> Void) -> [String] {
            Instrumentation.install(hook)
            let subject = Subject<Int>()
            let disposable = subject.subscribeNext { _ in }
            Instrumentation.uninstall(hook)
            subject.sendNext(1)
            stop()
            subject.sendNext(2)
            disposable.dispose()
            let ids = Set(hook.subscriptions(of: subject.id).map(\.id))
            return hook.calls.compactMap { call in
                guard case .next(let id, let value) = call, ids.contains(id) else { return nil }
                return value
            }
        }
        let activity = InstrumentationActivity()
        #expect(values(reaching: RecordingInstrumentation(activity: activity)) { activity.stop() } == ["1"])
        #expect(values(reaching: RecordingInstrumentation()) {} == ["1", "2"])
    }

    @Test("I1: with no hook installed, subscriptions are untraced")
    func untracedWithoutHooks() async {
        // In a process of its own, where no other test has a hook installed.
        await #expect(processExitsWith: .success) {
            var id: SubscriptionID?
            Signal<Int> { subscriber in
                id = subscriber.id
                return nil
            }.subscribe()
            precondition(Instrumentation.current == nil && id == .untraced)
        }
    }

    @Test("I6: several hooks installed at once each receive every call")
    func severalHooks() throws {
        var signal: Signal<Int>!
        var inner: RecordingInstrumentation!
        let outer = RecordingInstrumentation.recording {
            inner = RecordingInstrumentation.recording {
                signal = Signal.just(1)
                signal.subscribe()
            }
        }
        for spy in [outer, inner!] {
            let subscription = try #require(spy.subscriptions(of: signal.id).first)
            #expect(spy.nodes.contains { $0.id == signal.id })
            #expect(spy.calls(of: subscription.id).contains(.next(subscription.id, value: "1")))
        }
    }

    private enum Watch {
        @TaskLocal static var isOn = false
    }

    @Test("I10: a hook hears of what is made while it watches the code running, and of what that does later on any thread; nothing else")
    func watching() async {
        // In a process of its own: the hook that watches everything must hear this test alone.
        await #expect(processExitsWith: .success) {
            let spy = RecordingInstrumentation(watches: { Watch.isOn })
            let everything = RecordingInstrumentation()
            Instrumentation.install(spy)
            Instrumentation.install(everything)
            let unwatched = Subject<Int>()
            let subject = Watch.$isOn.withValue(true) { Subject<Int>() }
            let watchedSubscription = Watch.$isOn.withValue(true) { subject.subscribeNext { _ in } }
            let unwatchedSubscription = subject.subscribeNext { _ in }
            let thread = Thread {
                subject.sendNext(1)
                unwatched.sendCompleted()
                unwatched.sendNext(2)
            }
            thread.start()
            while !thread.isFinished { usleep(1_000) }
            let heard = spy.subscriptions(of: subject.id)
            precondition(spy.nodes.map(\.id) == [subject.id] && heard.count == 1)
            precondition(spy.calls(of: heard[0].id).contains(.next(heard[0].id, value: "1")))
            precondition(!spy.calls.contains { if case .dropped = $0 { true } else { false } })
            precondition(Set(everything.nodes.map(\.id)) == [subject.id, unwatched.id])
            precondition(everything.subscriptions(of: subject.id).count == 2)
            precondition(everything.calls.contains { if case .dropped = $0 { true } else { false } })
            withExtendedLifetime((watchedSubscription, unwatchedSubscription)) {}
        }
    }

    @Test("I10: calls about a node go to the hooks picked when it was made, whatever code makes them later")
    func nodeCallsGoToItsHooks() async {
        await #expect(processExitsWith: .success) {
            let spy = RecordingInstrumentation(watches: { Watch.isOn })
            Instrumentation.install(spy)
            let watched = Watch.$isOn.withValue(true) { Subject<Int>() }
            let unwatched = Subject<Int>()
            // Code the spy does not watch names the watched subject and sends to it after its
            // end; code it watches names the unwatched one and does the same.
            watched.named("watched")
            watched.sendCompleted()
            watched.sendNext(1)
            Watch.$isOn.withValue(true) {
                unwatched.named("unwatched")
                unwatched.sendCompleted()
                unwatched.sendNext(2)
            }
            let dropped = spy.calls.compactMap { call -> NodeID? in if case .dropped(let violation) = call { violation.node } else { nil } }
            let named = spy.calls.compactMap { call -> NodeID? in if case .nodeNamed(let node, _) = call { node } else { nil } }
            precondition(dropped == [watched.id], "\(dropped)")
            precondition(named == [watched.id], "\(named)")
        }
    }

    @Test("I2: every node reports its kind, name, traits and creation site: the user's line, for every factory")
    func nodesReportCreation() throws {
        var made: [(NodeID, NodeKind, String, NodeTraits, UInt)] = []
        var lifetimeToken: Lifetime.Token?
        let spy = RecordingInstrumentation.recording {
            let cold = Signal<Int> { _ in nil }
            made.append((cold.id, .signal, "createSignal", .cold, #line - 1))
            let just = Signal.just(1)
            made.append((just.id, .signal, "just", [], #line - 1))
            let empty = Signal<Int>.empty()
            made.append((empty.id, .signal, "empty", [], #line - 1))
            let never = Signal<Int>.never()
            made.append((never.id, .signal, "never", [], #line - 1))
            let error = Signal<Int>.error(TestError())
            made.append((error.id, .signal, "error", [], #line - 1))
            let deferred = Signal.defer { Signal.just(1) }
            made.append((deferred.id, .signal, "defer", .cold, #line - 1))
            let interval = Signal.interval(1, on: TestScheduler())
            made.append((interval.id, .signal, "interval", .cold, #line - 1))
            let subject = Subject<Int>()
            made.append((subject.id, .subject, "subject", .hot, #line - 1))
            let replay = ReplaySubject<Int>(capacity: 1)
            made.append((replay.id, .replaySubject, "replaySubject", .hot, #line - 1))
            let behavior = BehaviorSubject(0)
            made.append((behavior.id, .behaviorSubject, "behaviorSubject", .hot, #line - 1))
            let property = MutableProperty(0)
            made.append((property.signal.id, .property, "property", [.hot, .completesByItself], #line - 1))
            let (lifetime, token) = Lifetime.make()
            made.append((lifetime.ended.id, .lifetime, "lifetime", [.hot, .completesByItself], #line - 1))
            lifetimeToken = token
        }
        for (id, kind, name, traits, line) in made {
            let node = try #require(spy.nodes.first { $0.id == id }, "node \(name) was not reported")
            #expect(node.kind == kind)
            #expect(node.name == name)
            #expect(node.traits == traits, "\(name)")
            #expect(node.site.file == Self.file)
            #expect(node.site.line == line)
            #expect(node.site.function.description == "nodesReportCreation()")
            #expect(node.parents.isEmpty)
        }
        _ = lifetimeToken
    }

    @Test("I3: subscriptions report their node, site and the subscription that caused them")
    func subscriptionsReportTree() throws {
        let source = Subject<Int>()
        var relay: Signal<Int>!
        var disposable: Disposable!
        var line: UInt = 0
        let spy = RecordingInstrumentation.recording {
            relay = Signal<Int> { subscriber in source.subscribe(subscriber) }
            disposable = relay.subscribeNext { _ in }
            line = #line - 1
        }
        let outer = try #require(spy.subscriptions(of: relay.id).first)
        let inner = try #require(spy.subscriptions(of: source.id).first)
        #expect(outer.parent == nil)
        #expect(outer.site.file == Self.file && outer.site.line == line)
        #expect(inner.parent == outer.id)
        #expect(spy.calls(of: outer.id).contains(.observerStored(outer.id, closureCount: 1)))
        #expect(spy.calls(of: inner.id).contains(.observerStored(inner.id, closureCount: 3)))
        disposable.dispose()
        #expect(spy.calls(of: outer.id).last == .observerReleased(outer.id))
        #expect(spy.calls(of: inner.id).last == .observerReleased(inner.id))
    }

    @Test("I4: deliveries, terminal events and disposals with their causes reach the hook")
    func eventsAndDisposals() throws {
        let subject = Subject<String>()
        var relay: Signal<String>!
        var explicit: Disposable!
        var scoped: ScopedDisposable?
        let spy = RecordingInstrumentation.recording {
            relay = Signal<String> { subscriber in subject.subscribe(subscriber) }
            explicit = relay.subscribe()
            scoped = subject.subscribe().asScoped()
            subject.subscribe()
        }
        let relayed = try #require(spy.subscriptions(of: relay.id).first).id
        let ids = spy.subscriptions(of: subject.id).map(\.id)
        try #require(ids.count == 3)
        let (upstreamOfRelay, scopedID, completing) = (ids[0], ids[1], ids[2])

        subject.sendNext("hello")
        explicit.dispose()
        scoped = nil
        subject.sendCompleted()

        #expect(spy.calls(of: relayed).contains(.next(relayed, value: "hello")))
        #expect(spy.calls(of: relayed).contains(.disposed(relayed, .explicit)))
        #expect(spy.calls(of: upstreamOfRelay).contains(.disposed(upstreamOfRelay, .upstream)))
        #expect(spy.calls(of: scopedID).contains(.disposed(scopedID, .scopedDeinit)))
        #expect(spy.calls(of: completing).suffix(3) == [
            .completed(completing), .disposed(completing, .terminal), .observerReleased(completing),
        ])
        _ = scoped
    }

    @Test("I4: errors and dropped events reach the hook")
    func errorsAndViolations() throws {
        // Made under the hook: a subject's dropped event goes to the hooks it was made under (I10).
        var subject: Subject<Int>!
        var captured: Subscriber<Int>?
        let signal = Signal<Int> { subscriber in
            captured = subscriber
            return nil
        }
        let spy = RecordingInstrumentation.recording {
            subject = Subject<Int>()
            subject.subscribe()
            signal.subscribe()
            subject.sendError(TestError(code: 4))
            subject.sendNext(1)
            captured?.sendCompleted()
            captured?.sendNext(2)
        }
        let subjectSubscription = try #require(spy.subscriptions(of: subject.id).first).id
        let signalSubscription = try #require(spy.subscriptions(of: signal.id).first).id
        #expect(spy.calls.contains(.error(subjectSubscription, description: "TestError(4)")))
        #expect(spy.calls.contains(.dropped(DroppedEvent(kind: .next, node: subject.id, subscription: nil))))
        #expect(spy.calls.contains(
            .dropped(DroppedEvent(kind: .next, node: signal.id, subscription: signalSubscription))))
    }

    @Test("I4: a disposal asked for while another thread delivers is reported when asked for; that thread releases the observer when its callback returns")
    func disposalBehindAnotherThreadsDelivery() throws {
        let subject = Subject<Int>()
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        var disposable: Disposable!
        let spy = RecordingInstrumentation.recording {
            disposable = subject.subscribeNext { _ in
                entered.signal()
                release.wait()
            }
        }
        let id = try #require(spy.subscriptions(of: subject.id).first).id
        let sender = Thread { subject.sendNext(1) }
        sender.start()
        entered.wait()
        disposable.dispose()
        // The sender is still inside the observer: the disposal is already reported.
        #expect(spy.calls(of: id).contains(.disposed(id, .explicit)))
        #expect(!spy.calls(of: id).contains(.observerReleased(id)))
        release.signal()
        while !sender.isFinished { usleep(1_000) }
        #expect(spy.calls(of: id).filter { $0 == .disposed(id, .explicit) }.count == 1, "reported once")
        #expect(spy.calls(of: id).last == .observerReleased(id))
    }

    @Test("I4: a subscription keeps reporting to the hook installed when it was made")
    func subscriptionKeepsItsHook() throws {
        let subject = Subject<Int>()
        let spy = RecordingInstrumentation.recording { subject.subscribe() }
        subject.sendNext(1)
        let id = try #require(spy.subscriptions(of: subject.id).first).id
        #expect(spy.calls(of: id).contains(.next(id, value: "1")))
    }

    @Test("I7: an observer's closures reach the hook as the subscription stores them: the events it handles, and each closure with its role and the subscribing line")
    func observerClosures() throws {
        // Other tests' subscriptions may reach the hook too: it keeps those of `node` alone.
        final class Hook: SignalInstrumentation, @unchecked Sendable {
            let node: NodeID
            let state = Mutex<(ids: Set<SubscriptionID>, stored: [ObserverClosures])>(([], []))
            var stored: [ObserverClosures] { state.withLock { $0.stored } }
            init(node: NodeID) { self.node = node }
            func subscribed(_ subscription: SubscriptionDescriptor, object: AnyObject) {
                if subscription.node == node { state.withLock { _ = $0.ids.insert(subscription.id) } }
            }
            func observerStored(_ subscription: SubscriptionID, closures: ObserverClosures) {
                state.withLock { if $0.ids.contains(subscription) { $0.stored.append(closures) } }
            }
        }
        let source = Subject<Int>()
        let hook = Hook(node: source.id)
        var lines: [UInt] = []
        Instrumentation.install(hook)
        let nextOnly = source.subscribeNext { _ in }
        lines.append(#line - 1)
        let all = source.subscribe(next: { _ in }, error: { _ in }, completed: {})
        lines.append(#line - 1)
        let completedOnly = source.subscribe(completed: {})
        lines.append(#line - 1)
        Instrumentation.uninstall(hook)
        defer { [nextOnly, all, completedOnly].forEach { $0.dispose() } }
        try #require(hook.stored.count == 3)
        let expected: [[ClosureRole]] = [[.next], [.next, .error, .completed], [.completed]]
        for (index, closures) in hook.stored.enumerated() {
            #expect(closures.closures.map(\.role) == expected[index])
            #expect(closures.count == expected[index].count)
            #expect(closures.hasNext == expected[index].contains(.next))
            #expect(closures.hasError == expected[index].contains(.error))
            #expect(closures.hasCompleted == expected[index].contains(.completed))
            #expect(closures.closures.allSatisfy { $0.site?.line == lines[index] && $0.site?.file == Self.file })
        }
    }

    @Test("I5: operator stages report their parents, with control edges for triggers")
    func operatorEdges() throws {
        let source = Subject<Int>()
        let trigger = Subject<Void>()
        let other = Subject<Int>()
        var mapped: Signal<Int>!
        var until: Signal<Int>!
        var merged: Signal<Int>!
        let spy = RecordingInstrumentation.recording {
            mapped = source.map { $0 + 1 }
            until = mapped.takeUntil(trigger)
            merged = Signal.merge([until, other])
        }
        let map = try #require(spy.nodes.first { $0.id == mapped.id })
        #expect(map.kind == .operator && map.name == "map")
        #expect(map.parents == [NodeEdge(parent: source.id, kind: .data)])
        let takeUntil = try #require(spy.nodes.first { $0.id == until.id })
        #expect(takeUntil.parents == [NodeEdge(parent: mapped.id, kind: .data), NodeEdge(parent: trigger.id, kind: .control)])
        let merge = try #require(spy.nodes.first { $0.id == merged.id })
        #expect(merge.parents.map(\.parent) == [until.id, other.id])
    }

    @Test("I5: a chain's subscriptions form a tree, and inner signals are reported as they arrive")
    func chainTreeAndInnerEdges() throws {
        let queries = Subject<String>()
        var results: Signal<String>!
        var inner: Signal<String>!
        let spy = RecordingInstrumentation.recording {
            results = queries.map { query -> Signal<String> in
                inner = Signal.just("result for " + query)
                return inner
            }.switchToLatest().named("search results")
            results.subscribe()
            queries.sendNext("swift")
        }
        #expect(spy.calls.contains(.nodeNamed(results.id, "search results")))
        #expect(spy.calls.contains(.edgeAdded(NodeEdge(parent: inner.id, kind: .data), to: results.id)))
        let switchNode = try #require(spy.nodes.first { $0.id == results.id })
        #expect(switchNode.parents.first?.kind == .control)
        let downstream = try #require(spy.subscriptions(of: results.id).first)
        let mapNode = try #require(switchNode.parents.first).parent
        let middle = try #require(spy.subscriptions(of: mapNode).first)
        let upstream = try #require(spy.subscriptions(of: queries.id).first)
        #expect(middle.parent == downstream.id)
        #expect(upstream.parent == middle.id)
    }

    @Test("I5: subscriptions an operator makes from an event handler name its subscription as their parent")
    func handlerSubscriptionsHaveParents() throws {
        let queries = Subject<String>()
        var results: Signal<String>!
        var inners: [Signal<String>] = []
        let spy = RecordingInstrumentation.recording {
            results = queries.flattenMap { query -> Signal<String> in
                let inner = Signal.just(query)
                inners.append(inner)
                return inner
            }
            results.subscribe()
            queries.sendNext("a")
        }
        let downstream = try #require(spy.subscriptions(of: results.id).first)
        let innerSignal = try #require(inners.first)
        let inner = try #require(spy.subscriptions(of: innerSignal.id).first)
        #expect(inner.parent == downstream.id)
    }
}

/// I9: hooks run deliveries and scheduled actions, so they can tell what an event caused.
@Suite("Instrumentation seam: deliveries and scheduled actions run inside the hook", .serialized, .timeLimit(.minutes(10)))
struct DeliveryNestingTests {
    final class Log: Sendable {
        let lines = Mutex<[String]>([])
    }

    /// Notes what it hears, and how deep inside its own delivery calls each call came.
    final class NestingHook: SignalInstrumentation, @unchecked Sendable {
        let name: String
        private let log: Log
        private var depth = 0

        init(_ name: String, log: Log) {
            self.name = name
            self.log = log
        }

        private func note(_ text: String) { log.lines.withLock { $0.append("\(name):\(text)@\(depth)") } }
        // Every other hook keeps its default (rule I11).
        func nextDelivered<Value>(_ subscription: SubscriptionID, value: Value, deliver: () -> Void) {
            note("next \(value)")
            depth += 1
            deliver()
            depth -= 1
        }
        func actionScheduled() -> (any Sendable)? { "scheduled at depth \(depth)" }
        func scheduledActionRuns(_ scheduled: (any Sendable)?, run: () -> Void) {
            note("runs \(scheduled as? String ?? "nothing")")
            run()
        }
        func creationBlockRuns(for subscription: SubscriptionID, run: () -> Void) {
            note("creation block")
            depth += 1
            run()
            depth -= 1
        }
    }

    @Test("I9: the observer runs inside the hook's delivery call, in every hook's when there are several; an action brings back what its hook gave when it was scheduled; a cold signal's creation block runs inside the hook's call, a subject's subscription makes none")
    func nesting() async {
        // In a process of its own: no other test's subscriptions may call these hooks.
        await #expect(processExitsWith: .success) {
            let log = Log()
            let scheduler = TestScheduler()
            Instrumentation.install(NestingHook("outer", log: log))
            Instrumentation.install(NestingHook("inner", log: log))
            let source = Subject<Int>()
            let results = Subject<Int>()
            source.subscribeNext { value in
                results.sendNext(value * 10)
                scheduler.schedule { results.sendNext(value * 100) }
            }
            results.subscribeNext { _ in }
            source.sendNext(1)
            scheduler.advance(by: 0)
            Signal<Int> { subscriber in
                subscriber.sendNext(1_000)
                return nil
            }.subscribeNext { _ in }
            let calls = log.lines.withLock { $0 }
            let expected = [
                "outer:next 1@0", "inner:next 1@0",
                "outer:next 10@1", "inner:next 10@1",
                "outer:runs scheduled at depth 1@0", "inner:runs scheduled at depth 1@0",
                "outer:next 100@0", "inner:next 100@0",
                "outer:creation block@0", "inner:creation block@0",
                "outer:next 1000@1", "inner:next 1000@1",
            ]
            precondition(calls == expected, "\(calls)")
        }
    }
}

/// I12: a delivery as a beginning and an end, for libraries that report will/did pairs.
@Suite("Instrumentation seam: deliveries as a beginning and an end", .serialized, .timeLimit(.minutes(10)))
struct DeliveryPairTests {
    /// Implements deliveries only as the pair: each beginning hands out a token numbered
    /// after the hook, and each end notes whether it got back a token this hook gave.
    final class PairHook: SignalInstrumentation, @unchecked Sendable {
        let name: String
        private let log: DeliveryNestingTests.Log
        private var given: UInt64 = 0
        private var open: [UInt64] = []

        init(_ name: String, log: DeliveryNestingTests.Log) {
            self.name = name
            self.log = log
        }

        func nextWillBeDelivered<Value>(_ subscription: SubscriptionID, value: Value) -> DeliveryToken {
            given += 1
            open.append(given)
            log.lines.withLock { $0.append("\(name):begin \(value)") }
            return DeliveryToken(first: given, second: UInt64(name.count))
        }
        func deliveryEnded(_ token: DeliveryToken) {
            let mine = token.second == UInt64(name.count) && token.first == open.popLast()
            log.lines.withLock { $0.append("\(name):end\(mine ? "" : " (not its token)")") }
        }
        func actionScheduled() -> (any Sendable)? { "\(name)'s" }
        func scheduledActionWillRun(_ scheduled: (any Sendable)?) -> DeliveryToken {
            log.lines.withLock { $0.append("\(name):action \(scheduled as? String ?? "nil")") }
            return nextWillBeDelivered(SubscriptionID.next(), value: "action")
        }
        func scheduledActionEnded(_ token: DeliveryToken) { deliveryEnded(token) }
    }

    @Test("I12: a library's will and did calls begin and end a delivery or a scheduled action with every hook, the first installed outermost, each hook getting back its own token; the runtime's own deliveries and actions reach a hook that implements only the pairs")
    func pairs() async {
        await #expect(processExitsWith: .success) {
            let log = DeliveryNestingTests.Log()
            Instrumentation.install(PairHook("outer", log: log))
            Instrumentation.install(PairHook("inner-hook", log: log))
            // A library reporting will/did, as an adapter passes it on: deliveries nest.
            let hook = Instrumentation.current!
            let first = hook.nextWillBeDelivered(SubscriptionID.next(), value: "a")
            let nested = hook.nextWillBeDelivered(SubscriptionID.next(), value: "b")
            hook.deliveryEnded(nested)
            hook.deliveryEnded(first)
            // A scheduled action the same way: each hook gets back what it gave when it was scheduled.
            let action = hook.scheduledActionWillRun(hook.actionScheduled())
            hook.scheduledActionEnded(action)
            // The runtime's subscriptions deliver, and its schedulers run actions, through the
            // closure forms, built on the pairs.
            let source = Subject<Int>()
            source.subscribeNext { _ in }
            source.sendNext(1)
            let scheduler = TestScheduler()
            _ = scheduler.schedule {}
            scheduler.run()
            let calls = log.lines.withLock { $0 }
            let expected = [
                "outer:begin a", "inner-hook:begin a", "outer:begin b", "inner-hook:begin b",
                "inner-hook:end", "outer:end", "inner-hook:end", "outer:end",
                "outer:action outer's", "outer:begin action", "inner-hook:action inner-hook's", "inner-hook:begin action",
                "inner-hook:end", "outer:end",
                "outer:begin 1", "inner-hook:begin 1", "inner-hook:end", "outer:end",
                "outer:action outer's", "outer:begin action", "inner-hook:action inner-hook's", "inner-hook:begin action",
                "inner-hook:end", "outer:end",
            ]
            precondition(calls == expected, "\(calls)")
        }
    }
}

/// I11: a tool implements only the hooks it looks at.
@Suite("Instrumentation seam: every hook has a default", .serialized, .timeLimit(.minutes(10)))
struct DefaultHookTests {
    /// Counts disposals, and implements nothing else.
    final class DisposalCounter: SignalInstrumentation, @unchecked Sendable {
        let count = Mutex(0)
        func disposed(_ subscription: SubscriptionID, cause: DisposalCause) { count.withLock { $0 += 1 } }
    }

    @Test("I17: the runtime's nodes and subscriptions say they report their deinit, and report it once from their deinit to the hooks that heard of them, uninstalled since or not")
    func deinitReported() {
        let first = DeinitWitness()
        let second = DeinitWitness()
        Instrumentation.install(first)
        Instrumentation.install(second)
        weak var mapped: Signal<Int>?
        weak var subject: Subject<Int>?
        func run() -> (nodes: Set<NodeID>, stillAlive: Bool) {
            let source = Subject<Int>()
            let stage = source.map { $0 + 1 }
            (subject, mapped) = (source, stage)
            let disposable = stage.subscribeNext { _ in }
            source.sendNext(1)
            let heardWhileAlive = first.deinitialized.withLock { !$0.nodes.isDisjoint(with: [source.id, stage.id]) }
            disposable.dispose()
            return ([source.id, stage.id], heardWhileAlive)
        }
        let (nodes, heardWhileAlive) = run()
        Instrumentation.uninstall(second)
        Instrumentation.uninstall(first)
        // Ground truth: both nodes, and with them their subscriptions, are freed.
        #expect(mapped == nil && subject == nil)
        #expect(!heardWhileAlive)
        for witness in [first, second] {
            let heard = witness.deinitialized.withLock { $0 }
            let made = heard.made.filter { nodes.contains($0.node) }
            #expect(made.count == 2)
            #expect(made.allSatisfy { $0.reportsDeinit })
            #expect(heard.nodes.intersection(nodes) == nodes)
            #expect(heard.repeated.isEmpty)
            // Each subscription to the two nodes (the observer's to `map`, `map`'s to the subject).
            let subscribed = heard.subscribed.filter { nodes.contains($0.node) }
            #expect(Set(subscribed.map(\.id)).count == 2)
            #expect(subscribed.allSatisfy { $0.reportsDeinit })
            #expect(heard.subscriptions.isSuperset(of: subscribed.map(\.id)))
        }
    }

    @Test("I11: a hook that implements one method hears it, and with the defaults values, errors and completions are still delivered")
    func oneMethodIsEnough() {
        let hook = DisposalCounter()
        Instrumentation.install(hook)
        defer { Instrumentation.uninstall(hook) }
        let subject = Subject<Int>()
        var values: [Int] = []
        var completed = false
        let disposable = subject.map { $0 * 2 }.subscribe(next: { values.append($0) }, completed: { completed = true })
        subject.sendNext(1)
        let other = Signal<Int>.never().subscribe()
        other.dispose()
        subject.sendCompleted()
        #expect(values == [2])
        #expect(completed)
        #expect(hook.count.withLock { $0 } >= 1)
        withExtendedLifetime(disposable) {}
    }
}

/// Notes what a hook hears of nodes and subscriptions being made and deinitialized (rule I17).
private final class DeinitWitness: SignalInstrumentation {
    struct Heard {
        var made: [(node: NodeID, reportsDeinit: Bool)] = []
        var subscribed: [SubscriptionDescriptor] = []
        var nodes: Set<NodeID> = []
        var subscriptions: Set<SubscriptionID> = []
        /// Nodes and subscriptions whose deinit was heard more than once.
        var repeated: [String] = []
    }

    let deinitialized = Mutex(Heard())

    func nodeCreated(_ node: NodeDescriptor, object: AnyObject) {
        deinitialized.withLock { $0.made.append((node.id, node.reportsDeinit)) }
    }
    func subscribed(_ subscription: SubscriptionDescriptor, object: AnyObject) {
        deinitialized.withLock { $0.subscribed.append(subscription) }
    }
    func nodeDeinitialized(_ node: NodeID) {
        deinitialized.withLock { if !$0.nodes.insert(node).inserted { $0.repeated.append("\(node)") } }
    }
    func subscriptionDeinitialized(_ subscription: SubscriptionID) {
        deinitialized.withLock { if !$0.subscriptions.insert(subscription).inserted { $0.repeated.append("\(subscription)") } }
    }
}
