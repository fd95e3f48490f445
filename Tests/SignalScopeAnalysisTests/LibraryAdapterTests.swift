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
        #expect(finding.location.file.hasSuffix("LibraryAdapterTests.swift"))
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
}
