import Foundation
@testable import LeakCorpus
import SignalScopeTools
@testable import SignalScopeTracing
import Testing

extension LeakCorpusTests {
    @Test("Every finding of the corpus has a location, a path and a hint")
    func findingsCarryTheirProof() {
        let findings = Self.outcomes.flatMap(\.outcome.findings)
        #expect(!findings.isEmpty)
        for finding in findings {
            #expect(finding.location.file.hasSuffix(".swift") && finding.location.line > 0, "\(finding)")
            #expect(!finding.path.isEmpty, "\(finding)")
            #expect(!finding.hint.isEmpty, "\(finding)")
        }
    }

    @Test("The same leak made many times at one place is one finding with a count")
    func duplicatesAreGrouped() throws {
        let outcome = LeakCorpus.cellWithoutTakeUntil()
        let finding = try #require(outcome.findings.first)
        #expect(outcome.findings.count == 1)
        #expect(finding.count == 3)
        #expect(finding.description.contains("(×3)"))
    }

    @Test("A self-capture finding names each step of the cycle")
    func pathOfASelfCapture() throws {
        let finding = try #require(LeakCorpus.observeCapturingSelf().findings.first)
        #expect(finding.severity == .error)
        #expect(finding.path.count == 4)
        #expect(finding.path.first == "SearchViewModel.query holds property (LeakCorpus/LeakCorpus.swift:9)")
        #expect(finding.path[1].hasPrefix("property (LeakCorpus/LeakCorpus.swift:9) keeps subscription #"))
        #expect(finding.path[1].hasSuffix("in its subscriber list"))
        #expect(finding.path[2].hasSuffix("keeps its next closure (LeakCorpus/LeakCorpus.swift:14), which captures SearchViewModel"))
        #expect(finding.path[3].hasPrefix("nothing else holds SearchViewModel"))
        // The object the closing step speaks of is named as the object, for the report's link
        // and the JSON's names, as the steps of the chain name theirs.
        let viewModel = try #require(finding.steps[0].entities.first { if case .object = $0 { true } else { false } })
        #expect(finding.steps[3].entities == [viewModel], "\(finding.steps[3].parts)")
        #expect(finding.evidence.count == 5, "SearchViewModel, its property, the property's signal, its subscriber list, the subscription, back to SearchViewModel")
        #expect(finding.hint.contains("[weak self]"))
    }

    @Test("A finding's steps are data: sites stay sites, names name their entities, each step carries the references it crosses")
    func stepsAreData() throws {
        let finding = try #require(LeakCorpus.observeCapturingSelf().findings.first)
        let first = finding.steps[0]
        guard case .name("SearchViewModel", of: .object)? = first.parts.first else {
            Issue.record("the holder is a name of an object: \(first.parts)")
            return
        }
        #expect(first.parts.contains { if case .site(let site) = $0 { site.file == "LeakCorpus/LeakCorpus.swift" && site.line == 9 } else { false } })
        #expect(first.phrased { "<\($0.file)>" } == "SearchViewModel.query holds property (<LeakCorpus/LeakCorpus.swift>)")
        // The heap steps together cross exactly the evidence; the closing words cross none.
        #expect(Set(finding.steps.flatMap(\.references)) == Set(finding.evidence))
        #expect(finding.steps.last?.references.isEmpty == true)
        let subscriptions = finding.steps[1].parts.compactMap { part -> SubscriptionID? in
            if case .name(_, of: .subscription(let id)) = part { id } else { nil }
        }
        #expect(subscriptions.count == 1 && finding.entities.contains(.subscription(subscriptions[0])))
    }

    @Test("A closure the runtime does not keep (a stored callback, a method reference) is named from its symbol, and placed by debug information")
    func closuresNamedFromSymbols() throws {
        let callback = try #require(LeakCorpus.cycleScenarios.first { $0.name == "child's callback capturing the screen" }?.run().findings.first)
        #expect(callback.path.contains("ProfileHeader.onFollow holds closure #1 in ProfileScreen.bindCallbackCapturingSelf() (LeakCorpus/Cycles.swift:29), which captures ProfileScreen"), "\(callback)")
        let method = try #require(LeakCorpus.commandFromMethod().findings.first)
        #expect(method.path.contains { $0.contains("EditorViewModel.makeSubmitFromMethod()") && $0.hasSuffix("which captures EditorViewModel") }, "\(method)")
    }

    @Test("A node made before the trace started is named by its type")
    func untracedNodeLabel() throws {
        _ = AppEvents.bus  // a global is made on first use: before the recording, here
        let finding = try #require(LeakCorpus.heldDisposableScenarios.first { $0.name == "disposable dropped" }?.run().findings.first)
        #expect(finding.message == "a subscription to Subject<String> (made before the trace started) never ends and its disposable was dropped")
    }

    /// One link of a long chain: it observes the previous link's subject, capturing itself.
    final class Link {
        let changes = Subject<Int>()
        var seen = 0
        func observe(_ previous: Link) { previous.changes.subscribeNext { _ in self.seen += 1 } }
    }

    @Test("A ring of 2,000 objects each observing the previous one's subject is judged without exhausting the stack")
    func longRing() throws {
        weak var first: Link?
        let trace = Tracer.record {
            let links = (0..<2_000).map { _ in Link() }
            for (link, previous) in zip(links, [links[links.count - 1]] + links.dropLast()) { link.observe(previous) }
            first = links[0]
        }
        try #require(first != nil, "each link's subject keeps the next link alive, round the ring")
        let findings = trace.analyze().findings
        let cycle = try #require(findings.first { $0.rule == .retainCycle }, "\(findings)")
        #expect(cycle.path.count > 2_000, "every link of the ring is a step of the path")
        first?.changes.sendCompleted()
    }

    @Test("Analysing a log file keeping only live entities finds the same as keeping everything")
    func liveEntitiesDetail() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("signalscope-\(UUID()).sslog")
        defer { try? FileManager.default.removeItem(at: url) }
        // A recorder of its own: the process-wide file recording belongs to other suites.
        let recorder = try Recorder(sink: FileSink(path: url.path), recordsValues: false)
        Instrumentation.install(recorder)
        let listener = Listener()
        let updates = Subject<Int>()
        updates.subscribeNext { _ in listener.count += 1 }
        for value in 0..<1_000 { Signal.just(value).subscribe() }
        Signal<Int>.error(APIError()).subscribeNext { _ in }
        Instrumentation.uninstall(recorder)
        try recorder.finish()

        let everything = try Trace(contentsOf: url)
        let live = try Trace(contentsOf: url, detail: .liveEntities)
        #expect(live.records.isEmpty)
        // Other tests' subscriptions, which this process-wide recorder sees too (this file's
        // included, running beside it), are not judged: only this function's.
        let own = live.subscriptions.values.filter { $0.site.file.hasSuffix("/AnalysisTests.swift") && $0.site.function == #function }
        #expect(own.count < 10, "the thousand ended subscriptions were dropped")
        #expect(everything.subscriptions.count > 1_000)
        #expect(live.hasEnd && everything.hasEnd)
        // Other suites record meanwhile, and this recorder sees their entities too: only this file's are judged.
        let summary = { (trace: Trace) in
            trace.analyze().findings.filter {
                $0.location.file == "SignalScopeAnalysisTests/AnalysisTests.swift" && $0.location.function == #function
            }
                .map { "\($0.rule) \($0.location) ×\($0.count)" }.sorted()
        }
        #expect(summary(live) == summary(everything))
        #expect(summary(live).contains { $0.hasPrefix("unhandled-error") })
        #expect(summary(live).contains { $0.hasPrefix("leaked-subscription") })
        updates.sendCompleted()
    }
}
