import Foundation
import SignalScopeTools
import Testing
import ToyReactive

/// Another reactive library traced through an adapter of one file (ToyReactiveAdapter):
/// its leaks are found by the analyzers as they are, its plumbing is never taken for the
/// program's objects, and its clean code gets no finding.
@Suite("A library adapter", .timeLimit(.minutes(10)))
struct LibraryAdapterTests {
    final class SearchScreen {
        let query = ToySubject<String>()
        var results: [String] = []
        var cancellable: ToyCancellable?

        func bind(capturingSelf: Bool) {
            cancellable = capturingSelf
                ? query.sink { self.results.append($0) }
                : query.sink { [weak self] in self?.results.append($0) }
        }
    }

    @Test("A screen its own toy subject's sink captures leaks, and the finding's path runs through the library's subject")
    func leakThroughTheLibrary() throws {
        _ = ToyReactiveAdapter.installed
        weak var leaked: SearchScreen?
        let trace = Tracer.record {
            let screen = SearchScreen()
            leaked = screen
            screen.bind(capturingSelf: true)
            screen.query.send("swift")
        }
        // Ground truth first: nothing but its own subject's sink keeps the screen.
        #expect(leaked != nil)
        let findings = trace.analyze().findings
        #expect(findings.count == 1, "\(findings)")
        let finding = try #require(findings.first)
        #expect(finding.severity == .error)
        #expect(finding.subject == FindingSubject(kind: .objects, name: "SearchScreen"), "the library's objects are plumbing, not the program's")
        #expect(finding.path.contains { $0.contains("ToySubject") }, "\(finding)")
        // The library gave its sites as text: the finding is at the sink's line all the same.
        #expect(finding.location.file == "SignalScopeAnalysisTests/LibraryAdapterTests.swift" && finding.location.line == 18, "\(finding.location)")
        let subjects = trace.nodes.values.filter { $0.name == "ToySubject" }
        #expect(subjects.count == 1 && trace.subscriptions.values.contains { $0.node == subjects[0].id })
        leaked?.query.finish()
    }

    @Test("The same screen with [weak self] is freed, and nothing is reported")
    func cleanTwin() throws {
        _ = ToyReactiveAdapter.installed
        weak var freed: SearchScreen?
        let trace = Tracer.record {
            let screen = SearchScreen()
            freed = screen
            screen.bind(capturingSelf: false)
            screen.query.send("swift")
        }
        #expect(freed == nil)
        #expect(trace.analyze().findings.isEmpty, "\(trace.analyze().findings)")
        #expect(trace.analyze().limitations.isEmpty, "\(trace.analyze().limitations)")
    }

    @Test("I12: a library that reports will and did keeps causes: what a sink sends while it receives a value is caused by that value")
    func causesKeptAcrossWillAndDid() throws {
        _ = ToyReactiveAdapter.installed
        var cancellables: [ToyCancellable] = []
        let trace = Tracer.record {
            let typed = ToySubject<String>()
            let searched = ToySubject<String>()
            cancellables.append(typed.sink { searched.send("results for " + $0) })
            cancellables.append(searched.sink { _ in })
            typed.send("swift")
            typed.finish()
            searched.finish()
        }
        let nodes = trace.nodes.values.filter { $0.name == "ToySubject" }.sorted { $0.id < $1.id }
        try #require(nodes.count == 2)
        func nextRecord(to node: NodeID) throws -> TraceRecord {
            try #require(trace.records.first { record in
                guard case .next(let id, _) = record.event else { return false }
                return trace.subscriptions[id]?.node == node
            })
        }
        let typedValue = try nextRecord(to: nodes[0].id)
        let searchedValue = try nextRecord(to: nodes[1].id)
        #expect(trace.causes(of: searchedValue).map(\.sequence) == [typedValue.sequence], "the value sent inside the delivery is caused by it")
        #expect(trace.causes(of: typedValue).isEmpty, "the value sent from outside any delivery has no cause")
        // After the delivery ended, the thread's cause is what it was before: none.
        let completions = trace.records.filter { if case .completed = $0.event { true } else { false } }
        #expect(completions.count == 2 && completions.allSatisfy { trace.causes(of: $0).isEmpty })
        for cancellable in cancellables { cancellable.cancel() }
    }

    @Test("A failure the library's sink takes in its completion closure is handled; one reaching a sink with no completion closure is an unhandled error, at that sink's line")
    func failureHandledOrNot() throws {
        _ = ToyReactiveAdapter.installed
        struct Offline: Error {}
        var failures: [String] = []
        let trace = Tracer.record {
            let handled = ToySubject<String>()
            let unhandled = ToySubject<String>()
            let first = handled.sink(receiveCompletion: { failures.append(String(describing: $0)) }, receiveValue: { _ in })
            let second = unhandled.sink { _ in }
            handled.fail(Offline())
            unhandled.fail(Offline())
            withExtendedLifetime((first, second)) {}
        }
        #expect(failures.count == 1, "the completion closure heard the failure")
        let findings = trace.analyze(rules: [.unhandledError]).findings
        #expect(findings.map(\.rule) == [.unhandledError], "\(findings)")
        #expect(findings.first?.location.line == 103, "at the sink with no completion closure: \(String(describing: findings.first?.location))")
    }

    @Test("A library's subject that was sent its completion is known to have terminated at the end; one never completed is not")
    func terminatedSubjects() throws {
        _ = ToyReactiveAdapter.installed
        var subjects: [ToySubject<Int>] = []
        let trace = Tracer.record {
            let completed = ToySubject<Int>()
            let open = ToySubject<Int>()
            completed.finish()
            subjects = [completed, open]
        }
        let nodes = trace.nodes.values.filter { $0.name == "ToySubject" }.sorted { $0.id < $1.id }
        #expect(nodes.map(\.terminatedAtEnd) == [true, false], "\(nodes)")
        withExtendedLifetime(subjects) {}
    }

    @Test("I16: a cancellable the program dropped leaves its sink attached for good: leaked-subscription, at the sink's line; one the program keeps leaves nothing to find")
    func droppedCancellable() throws {
        _ = ToyReactiveAdapter.installed
        final class Badge { var count = 0 }
        for keeps in [false, true] {
            let badge = Badge()
            weak var handed: ToyCancellable?
            var (feed, kept): (ToySubject<Int>?, ToyCancellable?) = (nil, nil)
            var line = 0
            let trace = Tracer.record {
                let updates = ToySubject<Int>()
                line = #line + 1
                let cancellable = updates.sink { badge.count += $0 }
                handed = cancellable
                if keeps { kept = cancellable }
                feed = updates
            }
            // Ground truth: the cancellable is gone (or kept), and the sink still hears the feed.
            #expect((handed == nil) == !keeps, "kept: \(keeps)")
            feed?.send(1)
            #expect(badge.count == 1, "the sink is still attached")
            let findings = trace.analyze().findings
            if keeps {
                #expect(findings.isEmpty, "\(findings)")
            } else {
                #expect(findings.map(\.rule) == [.leakedSubscription] && findings.first?.location.line == line, "\(findings)")
                #expect(findings.first?.path.contains { $0.contains("the disposable its library returned for it was freed") } == true, "\(findings)")
            }
            kept?.cancel()
        }
    }

    @Test("A library's subject never finished, whose sink captures it, leaks with its sink: never-completed-subject, at the subject; finished, both are freed and nothing is found")
    func neverFinishedSubject() throws {
        _ = ToyReactiveAdapter.installed
        for finishes in [false, true] {
            weak var gone: ToySubject<Int>?
            var line = 0
            let trace = Tracer.record {
                line = #line + 1
                let retries = ToySubject<Int>()
                gone = retries
                // Tries again until the third attempt, sending into the subject it listens to.
                _ = retries.sink { attempt in if attempt < 3 { retries.send(attempt + 1) } }
                retries.send(1)
                if finishes { retries.finish() }
            }
            // Ground truth: the subject and its sink keep each other unless it finished.
            #expect((gone != nil) == !finishes, "finished: \(finishes)")
            let findings = trace.analyze().findings
            if finishes {
                #expect(findings.isEmpty, "\(findings)")
            } else {
                #expect(findings.map(\.rule) == [.neverCompletedSubject] && findings.first?.location.line == line, "\(findings)")
            }
        }
    }
}
