import Foundation
import SignalScopeTools
import Testing

@Suite("Captured objects and the closing snapshot", .timeLimit(.minutes(10)))
struct SnapshotTests {
    final class LoginScreen {
        var subscription: Disposable?
        var title = ""
    }

    private func objects(capturedBy subscription: Trace.Subscription, in trace: Trace) -> [ObjectID] {
        trace.heap.observerCaptures(of: subscription.id).keys.compactMap { if case .object(let id) = $0 { id } else { nil } }
    }

    @Test("Capture records count strong references, and name the subscription a forwarding observer feeds")
    func captureCountsAndForwarding() throws {
        var subject: Subject<Int>!
        var mapped: Signal<Int>!
        var kept: LoginScreen?
        let trace = Tracer.record {
            subject = Subject<Int>()
            mapped = subject.map { $0 + 1 }
            let screen = LoginScreen()
            kept = screen
            mapped.subscribe(next: { screen.title = "\($0)" }, error: { _ in screen.title = "failed" })
        }
        defer { subject.sendCompleted() }
        let downstream = try #require(trace.subscriptions.values.first { $0.node == mapped.id })
        let upstream = try #require(trace.subscriptions.values.first { $0.node == subject.id })
        #expect(downstream.handlers == [.next, .error])
        let screen = try #require(objects(capturedBy: downstream, in: trace).first)
        #expect(trace.heap.observerCaptures(of: downstream.id)[.object(screen)] == 2, "the next and the error closure each hold it")
        #expect(trace.heap.observerCaptures(of: upstream.id)[.subscription(downstream.id)] != nil, "map's observer holds the subscription it feeds")
        #expect(kept != nil)
    }

    @Test("An observer capturing self on a never-completed subject: the capture, what self holds, and who is still alive")
    func selfCapturedOnNeverCompletedSubject() throws {
        var errors: Subject<String>!
        weak var leaked: LoginScreen?
        let trace = Tracer.record {
            errors = Subject<String>()
            let screen = LoginScreen()
            leaked = screen
            screen.subscription = errors.subscribeNext { screen.title = $0 }
        }
        defer { errors.sendCompleted() }
        #expect(leaked != nil, "the subject keeps the subscriber, which keeps the screen")
        #expect(trace.heap.hasSnapshot)

        // Other tests may record at the same time: start from this test's own subscription.
        let subscription = try #require(trace.subscriptions.values.first { $0.node == errors.id })
        #expect(trace.heap.observerCaptures(of: subscription.id).count == 1)
        let screenID = try #require(objects(capturedBy: subscription, in: trace).first)
        let screen = try #require(trace.objects[screenID])
        #expect(screen.typeName.hasSuffix("SnapshotTests.LoginScreen"))
        #expect(trace.heap.entitiesHeld(by: screenID) == [.subscription(subscription.id)], "its stored disposable is that subscription's")
        // A point-in-time count: another recording running alongside may briefly hold one more.
        #expect((screen.retainCountAtEnd ?? 0) >= 1, "the observer closure holds it")
        #expect(subscription.retainCountAtEnd != nil, "the subscription was alive")
        #expect(trace.nodes[errors.id]?.retainCountAtEnd != nil, "the subject was alive")
        #expect(trace.nodes[errors.id]?.terminatedAtEnd == false, "and had never terminated")
    }

    @Test("[weak self] is not recorded as a capture, and a completed subscription is not alive at the end")
    func weakSelfAndCompleted() throws {
        var errors: Subject<String>!
        let trace = Tracer.record {
            errors = Subject<String>()
            let screen = LoginScreen()
            screen.subscription = errors.subscribeNext { [weak screen] in screen?.title = $0 }
            errors.sendCompleted()
        }
        let subscription = try #require(trace.subscriptions.values.first { $0.node == errors.id })
        #expect(trace.heap.observerCaptures(of: subscription.id).isEmpty)
        #expect(subscription.retainCountAtEnd == nil)
        #expect(trace.nodes[errors.id]?.terminatedAtEnd == true)
    }

    @Test("Captures come from the closing snapshot: each live observer's captured object once, with its own id; an ended subscription's none")
    func capturesFromTheSnapshot() throws {
        let subject = Subject<Int>()
        var kept: [Disposable] = []
        weak var firstScreen: LoginScreen?
        let trace = Tracer.record {
            for index in 0..<3 {
                let screen = LoginScreen()
                if index == 0 { firstScreen = screen }
                kept.append(subject.subscribeNext { screen.title = "\($0)" })
            }
            let gone = LoginScreen()
            subject.subscribeNext { gone.title = "\($0)" }.dispose()
        }
        // Ground truth: the kept subscriptions keep their screens alive.
        #expect(firstScreen != nil)
        let subscriptions = trace.subscriptions.values.filter { $0.node == subject.id }
        let captured = subscriptions.flatMap { objects(capturedBy: $0, in: trace) }
        #expect(captured.count == 3, "the disposed subscription's screen is not captured by anything alive")
        #expect(Set(captured).count == 3, "each screen is its own object")
        #expect(captured.allSatisfy { trace.objects[$0]?.typeName.hasSuffix("LoginScreen") == true })
        #expect(captured.allSatisfy { trace.objects[$0]?.retainCountAtEnd != nil }, "all three were alive at the end")
        withExtendedLifetime(kept) {}
    }
}
