import Foundation
import Testing

@Suite("signalscope graph, timeline, export, stats and demo")
struct OtherCommandTests {
    let plantedLeaks = CLIRunner.product("PlantedLeaks")

    @Test func drawingAndExportingATrace() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        #expect(try cli.signalscope("record", "-o", "t.sslog", "--", plantedLeaks).status == 0)
        #expect(try cli.signalscope("graph", "t.sslog", "-o", "graph.svg").status == 0)
        #expect(try String(contentsOfFile: cli.path("graph.svg"), encoding: .utf8).contains("<svg"))
        #expect(try cli.signalscope("graph", "t.sslog", "-o", "graph.dot", "--no-collapse").status == 0)
        #expect(try String(contentsOfFile: cli.path("graph.dot"), encoding: .utf8).hasPrefix("digraph"))
        #expect(try cli.signalscope("graph", "t.sslog", "-o", "none.svg", "--focus", "no-such-node").status == 1)
        #expect(try cli.signalscope("timeline", "t.sslog", "-o", "timeline.svg", "--lanes", "nodes").status == 0)
        #expect(try String(contentsOfFile: cli.path("timeline.svg"), encoding: .utf8).contains("<svg"))
        #expect(try cli.signalscope("export", "t.sslog", "--chrome-trace", "chrome.json").status == 0)
        let chrome = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: cli.path("chrome.json"))))
        #expect(chrome is [String: Any] || chrome is [Any])
        let stats = try cli.signalscope("stats", "t.sslog")
        #expect(stats.status == 0)
        #expect(stats.standardOutput.contains("records by kind"))
        #expect(stats.standardOutput.contains("subscriptions alive  3 of 3"))
    }

    @Test func demoWritesEveryOutput() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        let result = try cli.signalscope("demo", "-o", "out")
        #expect(result.status == 0, "stderr: \(result.standardError)")
        for name in ["demo.sslog", "graph.svg", "timeline.svg", "trace.json", "findings.txt", "findings.sarif"] {
            #expect(FileManager.default.fileExists(atPath: cli.path("out/\(name)")), "\(name)")
            #expect(result.standardOutput.contains("out/\(name)"))
        }
        #expect(result.standardOutput.contains("self-captured-observer"))
    }
}
