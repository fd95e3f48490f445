import Foundation
import SignalScopeTesting
import Synchronization
import SignalScopeTools
import Testing

private final class EvidenceViewModel {
    let name = MutableProperty("")
    var greeting = ""

    func bindCapturingSelf() { name.signal.subscribeNext { self.greeting = "hello \($0)" } }
    func bindWeakly() { name.signal.subscribeNext { [weak self] in self?.greeting = "hello \($0)" } }
}

/// `SIGNALSCOPE_ARTIFACTS` for the test helpers, in a process of its own (the variable is
/// the process's): a failing check keeps its trace and report, a passing one nothing.
@Suite("Evidence a failing leak check keeps", .timeLimit(.minutes(10)))
struct LeakEvidenceTests {
    @Test("With SIGNALSCOPE_ARTIFACTS set, a failing check keeps its trace and its report under the test's name, and the failure names them; a passing check writes nothing")
    func failingCheckKeepsEvidence() async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("signalscope-evidence-\(getppid())").path
            try? FileManager.default.removeItem(atPath: folder)
            setenv("SIGNALSCOPE_ARTIFACTS", folder, 1)
            expectNoSignalLeaks {
                let model = EvidenceViewModel()
                model.bindWeakly()
                model.name.value = "Ada"
            }
            let passed = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            let named = Mutex(false)
            withKnownIssue {
                expectNoSignalLeaks { EvidenceViewModel().bindCapturingSelf() }
            } matching: { issue in
                let text = issue.comments.map(\.rawValue).joined()
                if text.hasPrefix("signal leak evidence: \(folder)/"), text.contains(".html, its trace \(folder)/") { named.withLock { $0 = true } }
                return true
            }
            let kept = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            print("passed:\(passed.sorted().joined(separator: ","))")
            print("kept:\(kept.sorted().joined(separator: ","))")
            print("named:\(named.withLock { $0 })")
            for file in kept where file.hasSuffix(".sslog") {
                let trace = try Trace(contentsOf: URL(fileURLWithPath: "\(folder)/\(file)"))
                print("rules:\(trace.analyze().findings.map(\.rule.rawValue).joined(separator: ","))")
            }
            for file in kept where file.hasSuffix(".html") {
                let page = try String(contentsOfFile: "\(folder)/\(file)", encoding: .utf8)
                print("page:\(page.contains("id=\"signalscope-data\"") && page.contains("a leak check writes this page without Graphviz"))")
            }
            try? FileManager.default.removeItem(atPath: folder)
        }
        let output = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
        let lines = Dictionary(output.split(separator: "\n").compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), String(line[line.index(after: colon)...]))
        }, uniquingKeysWith: { first, _ in first })
        #expect(lines["passed"] == "", "a passing check writes nothing: \(output)")
        let kept = (lines["kept"] ?? "").split(separator: ",").map(String.init)
        #expect(kept.count == 2 && kept.allSatisfy { $0.hasPrefix("LeakEvidenceTests-") } && kept.contains { $0.hasSuffix(".html") }
                && kept.contains { $0.hasSuffix(".sslog") }, "\(output)")
        #expect(lines["named"] == "true" && lines["rules"] == "self-captured-observer" && lines["page"] == "true", "\(output)")
    }
}
