import OpenCombine
import SignalScopeOpenCombine
import SignalScopeTools
import Testing

/// OpenCombine code, written as Combine users write it, traced through the adapter with no
/// change: each leak is found once, at the line of user code where the fix goes, after weak
/// references show that the object really stays alive; its fixed twin is freed and gets no
/// finding.
@Suite("OpenCombine code traced as it is written", .timeLimit(.minutes(5)))
struct OpenCombineLeakTests {
    final class ProfileViewModel {
        let name = PassthroughSubject<String, Never>()
        var display = ""
        var cancellables = Set<AnyCancellable>()

        func bind(capturingSelf: Bool) {
            if capturingSelf {
                name.map { $0.uppercased() }.sink { self.display = $0 }.store(in: &cancellables)
            } else {
                name.map { $0.uppercased() }.sink { [weak self] in self?.display = $0 }.store(in: &cancellables)
            }
        }
    }

    @Test("sink { self... } stored in self's cancellables: one finding, at the sink's line")
    func sinkCapturingSelf() throws {
        weak var leaked: ProfileViewModel?
        let trace = Tracer.record {
            let model = ProfileViewModel()
            leaked = model
            model.bind(capturingSelf: true)
            model.name.send("ada")
        }
        #expect(leaked != nil, "ground truth: the view model is kept alive")
        #expect(leaked?.display == "ADA")
        let findings = trace.analyze().findings
        #expect(findings.count == 1, "\(findings)")
        let finding = try #require(findings.first)
        #expect(finding.rule == .selfCapturedObserver, "\(finding)")
        #expect(finding.location.file.hasSuffix("OpenCombineLeakTests.swift") && finding.location.line == 19, "\(finding.location)")
        leaked?.cancellables.removeAll()
    }

    @Test("The same view model with [weak self] is freed, and nothing is reported")
    func sinkWithWeakSelf() throws {
        weak var freed: ProfileViewModel?
        let trace = Tracer.record {
            let model = ProfileViewModel()
            freed = model
            model.bind(capturingSelf: false)
            model.name.send("ada")
        }
        #expect(freed == nil, "ground truth: the view model is freed")
        let analysis = trace.analyze()
        #expect(analysis.findings.isEmpty, "\(analysis.findings)")
        #expect(analysis.limitations.isEmpty, "\(analysis.limitations)")
    }
}

/// The same, for the other ways Combine code holds on to things.
@Suite("OpenCombine leaks and their fixed twins", .timeLimit(.minutes(5)))
struct OpenCombineScenarioTests {
    final class CounterViewModel {
        let taps = PassthroughSubject<Void, Never>()
        var count = 0
        var cancellables = Set<AnyCancellable>()

        func bind(assigningToSelf: Bool) {
            let counts = taps.scan(0) { total, _ in total + 1 }
            if assigningToSelf {
                counts.assign(to: \.count, on: self).store(in: &cancellables)
            } else {
                counts.sink { [weak self] in self?.count = $0 }.store(in: &cancellables)
            }
        }
    }

    @Test("assign(to:on: self) stored in self's cancellables: one finding, at the assign's line")
    func assignToSelf() throws {
        weak var leaked: CounterViewModel?
        let trace = Tracer.record {
            let model = CounterViewModel()
            leaked = model
            model.bind(assigningToSelf: true)
            model.taps.send()
        }
        #expect(leaked != nil, "ground truth: the view model is kept alive")
        #expect(leaked?.count == 1)
        let findings = trace.analyze().findings
        #expect(findings.count == 1, "\(findings)")
        let finding = try #require(findings.first)
        #expect(finding.location.file.hasSuffix("OpenCombineLeakTests.swift") && finding.location.line == 72, "\(finding)")
        leaked?.cancellables.removeAll()
    }

    @Test("The assignment's fixed twin is freed, and nothing is reported")
    func assignFixed() throws {
        weak var freed: CounterViewModel?
        let trace = Tracer.record {
            let model = CounterViewModel()
            freed = model
            model.bind(assigningToSelf: false)
            model.taps.send()
        }
        #expect(freed == nil)
        let analysis = trace.analyze()
        #expect(analysis.findings.isEmpty, "\(analysis.findings)")
    }

    @Test("A subscriber subscribed directly and dropped, its subject never finished: never-completed-subject, at the subscribe's line")
    func subjectNeverFinished() throws {
        final class Screen {
            var title = ""
        }
        weak var leaked: Screen?
        let trace = Tracer.record {
            let screen = Screen()
            leaked = screen
            let titles = PassthroughSubject<String, Never>()
            titles.subscribe(Subscribers.Sink(receiveCompletion: { _ in }, receiveValue: { screen.title = $0 }))
            titles.send("Inbox")
        }
        #expect(leaked?.title == "Inbox", "ground truth: the subject and its sink keep the screen")
        let findings = trace.analyze().findings
        #expect(findings.map(\.rule) == [.neverCompletedSubject], "\(findings)")
        #expect(findings.first?.location.line == 121, "\(String(describing: findings.first?.location))")
    }

    @Test("The same subject sent .finished releases its sink: nothing leaks, nothing is reported, and its node terminated")
    func subjectFinished() throws {
        final class Screen {
            var title = ""
        }
        weak var freed: Screen?
        let trace = Tracer.record {
            let screen = Screen()
            freed = screen
            let titles = PassthroughSubject<String, Never>()
            titles.subscribe(Subscribers.Sink(receiveCompletion: { _ in }, receiveValue: { screen.title = $0 }))
            titles.send("Inbox")
            titles.send(completion: .finished)
        }
        #expect(freed == nil)
        #expect(trace.analyze().findings.isEmpty, "\(trace.analyze().findings)")
        let subjects = trace.nodes.values.filter { $0.name == "PassthroughSubject" }
        #expect(subjects.count == 1 && subjects.allSatisfy { $0.terminatedAtEnd != false }, "\(subjects)")
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

    /// Whether it is off when nothing records is a property of the whole process, which tests
    /// beside this one change: `make opencombine-cost` measures it in a process of its own.
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
        #expect(site.file == "SignalScopeOpenCombineTests/OpenCombineLeakTests.swift" && site.line == line, "\(site)")
        #expect(site.function.contains("sitesKnownByCode"), "\(site)")
        #expect(trace.subscriptions.count == 3)
    }
}
