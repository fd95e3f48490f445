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
        for finding in findings { print(finding) }
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
        print(trace.nodes.values.map { "\($0.id) \($0.name) \($0.site)" })
        print(trace.subscriptions.values.map { "\($0.id) \($0.node) \($0.site) parent \(String(describing: $0.parent))" })
    }
}
