import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

@Suite("signalscope graph, timeline, export, stats and demo", .timeLimit(.minutes(10)))
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
        let traceEvents = try #require((chrome as? [String: Any])?["traceEvents"] as? [[String: Any]])
        #expect(traceEvents.contains { ($0["name"] as? String)?.hasPrefix("next · ") == true }, "the example's values appear as events")
        #expect(try cli.signalscope("export", "t.sslog", "--jsonl", "records.jsonl").status == 0)
        let lines = try String(contentsOfFile: cli.path("records.jsonl"), encoding: .utf8).split(separator: "\n")
        let records = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(records.first?["event"] as? String == "node")
        #expect(records.last?["event"] as? String == "end")
        let sequence = records.compactMap { $0["seq"] as? Int }
        #expect(sequence.count == records.count && sequence == sequence.sorted())
        #expect(try cli.signalscope("export", "t.sslog").status == 1)
        let stats = try cli.signalscope("stats", "t.sslog")
        #expect(stats.status == 0)
        #expect(stats.standardOutput.contains("what the program did"))
        #expect(stats.standardOutput.contains("subscriptions alive  3 of 3"))
    }

    @Test("report writes one page; check --format html=path writes the same page beside its other reports; graph and report link nodes to an editor; bad options get one line")
    func htmlReports() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        #expect(try cli.signalscope("record", "-o", "t.sslog", "--", plantedLeaks).status == 0)
        // Links go only to files the project holds: the folder holds the example's source.
        try FileManager.default.createDirectory(atPath: cli.path("Sources/PlantedLeaks"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: CLIRunner.repository.appendingPathComponent("Examples/PlantedLeaks/main.swift"), to: URL(fileURLWithPath: cli.path("Sources/PlantedLeaks/main.swift")))
        let report = try cli.signalscope("report", "t.sslog", "-o", "report.html", "--editor-url", "vscode://file/{path}:{line}")
        #expect(report.status == 0, "\(report.standardError)")
        let page = try String(contentsOfFile: cli.path("report.html"), encoding: .utf8)
        #expect(page.contains("id=\"signalscope-data\"") && page.contains("vscode://file/\(cli.folder.path)/Sources/PlantedLeaks/main.swift:") && page.contains("<svg"))
        #expect(!page.contains("src=") && !page.contains("<link") && !page.contains("@import"), "nothing is fetched: style, script and data are inline")
        let check = try cli.signalscope("check", "t.sslog", "--format", "html=check.html", "--format", "text")
        #expect(check.status == 2, "the example's leaks fail the check: \(check.standardError)")
        #expect(check.standardOutput.contains("self-captured-observer"))
        let checkPage = try String(contentsOfFile: cli.path("check.html"), encoding: .utf8)
        #expect(checkPage.contains("self-captured-observer") && checkPage.contains("<svg"))
        let linked = try cli.signalscope("graph", "t.sslog", "-o", "linked.svg", "--editor-url", "vscode://file/{path}:{line}")
        #expect(linked.status == 0, "\(linked.standardError)")
        let svg = try String(contentsOfFile: cli.path("linked.svg"), encoding: .utf8)
        #expect(svg.contains("href=\"vscode://file/") && svg.contains("PlantedLeaks/main.swift:"), "nodes link to their source lines")
        let bad = try cli.signalscope("report", "t.sslog", "-o", "x.html", "--editor-url", "vscode://file")
        #expect(bad.status == 1 && bad.standardError.split(separator: "\n").count == 1 && bad.standardError.contains("{path}"))
        let missing = try cli.signalscope("report", "nope.sslog", "-o", "x.html")
        #expect(missing.status == 1 && missing.standardError.contains("no such trace: nope.sslog"))
    }

    @Test("graph --engine sfdp removes overlaps: at app scale no two boxes cover each other")
    func sfdpWithoutOverlaps() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        let recorded = try cli.signalscope("record", "-o", "scale.sslog", "--", CLIRunner.product("ScreensAtScale"))
        #expect(recorded.status == 0, "\(recorded.standardError)")
        #expect(try cli.signalscope("graph", "scale.sslog", "-o", "graph.svg", "--engine", "sfdp").status == 0)
        let document = try XMLDocument(data: Data(contentsOf: URL(fileURLWithPath: cli.path("graph.svg"))))
        // Each node's outline (not the legend's), as the bounding box of its first shape.
        let nodes = try document.nodes(
            forXPath: "//*[local-name()='g'][@class='node'][not(starts-with(*[local-name()='title'], 'legend_'))]")
        var boxes: [(x0: Double, y0: Double, x1: Double, y1: Double)] = []
        for node in nodes {
            let shapes = try node.nodes(forXPath: ".//*[local-name()='polygon' or local-name()='ellipse' or local-name()='path']")
            guard let shape = shapes.first as? XMLElement else { continue }
            // Attributes through XPath: FoundationXML's attribute(forName:) misses them on SVG's
            // namespaced elements.
            func attribute(_ name: String) -> String { (try? shape.nodes(forXPath: "@\(name)"))?.first?.stringValue ?? "" }
            func number(_ name: String) -> Double { Double(attribute(name)) ?? 0 }
            if shape.localName == "ellipse" {
                let (cx, cy, rx, ry) = (number("cx"), number("cy"), number("rx"), number("ry"))
                boxes.append((cx - rx, cy - ry, cx + rx, cy + ry))
            } else {
                // A polygon's points or a path's coordinates: numbers in x, y pairs.
                let text = attribute(shape.localName == "path" ? "d" : "points")
                let numbers = text.split { !"0123456789.-".contains($0) }.compactMap { Double($0) }
                let xs = stride(from: 0, to: numbers.count - 1, by: 2).map { numbers[$0] }
                let ys = stride(from: 1, to: numbers.count, by: 2).map { numbers[$0] }
                boxes.append((xs.min() ?? 0, ys.min() ?? 0, xs.max() ?? 0, ys.max() ?? 0))
            }
        }
        let degenerate = boxes.filter { !($0.x1 > $0.x0 && $0.y1 > $0.y0) }
        #expect(boxes.count > 30 && degenerate.isEmpty,
            "the app's graph, collapsed, every box read: \(boxes.count) nodes of \(nodes.count), boxes without area: \(degenerate); recording said: \(recorded.standardError)")
        for (index, a) in boxes.enumerated() {
            for b in boxes[(index + 1)...] {
                let overlap = min(a.x1, b.x1) - max(a.x0, b.x0) > 1 && min(a.y1, b.y1) - max(a.y0, b.y0) > 1
                #expect(!overlap, "\(a) and \(b) overlap")
            }
        }
    }

    @Test func demoWritesEveryOutput() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        let result = try cli.signalscope("demo", "-o", "out")
        #expect(result.status == 0, "stderr: \(result.standardError)")
        for name in ["demo.sslog", "report.html", "graph.svg", "timeline.svg", "trace.json", "findings.txt", "findings.sarif"] {
            #expect(FileManager.default.fileExists(atPath: cli.path("out/\(name)")), "\(name)")
            #expect(result.standardOutput.contains("out/\(name)"))
        }
        #expect(result.standardOutput.contains("self-captured-observer"))
    }

    @Test func outputsGoThroughSymlinksAndToStandardOutput() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        #expect(try cli.signalscope("record", "-o", "t.sslog", "--", plantedLeaks).status == 0)
        try FileManager.default.createSymbolicLink(atPath: cli.path("link.json"), withDestinationPath: "real.json")
        try Data("a longer old content that must not survive the rewrite".utf8).write(to: URL(fileURLWithPath: cli.path("real.json")))
        #expect(try cli.signalscope("check", "t.sslog", "--fail-on", "never", "--format", "json=link.json").status == 0)
        let type = try FileManager.default.attributesOfItem(atPath: cli.path("link.json"))[.type] as? FileAttributeType
        #expect(type == .typeSymbolicLink, "a symlink must be written through, not replaced")
        let written = try Data(contentsOf: URL(fileURLWithPath: cli.path("real.json")))
        #expect(try JSONSerialization.jsonObject(with: written) is [String: Any])

        // A streamed export through a symlink to a longer file leaves no old tail either.
        try FileManager.default.createSymbolicLink(atPath: cli.path("link.jsonl"), withDestinationPath: "real.jsonl")
        try Data(String(repeating: "x", count: 1 << 20).utf8).write(to: URL(fileURLWithPath: cli.path("real.jsonl")))
        #expect(try cli.signalscope("export", "t.sslog", "--jsonl", "link.jsonl").status == 0)
        let exported = try String(contentsOfFile: cli.path("real.jsonl"), encoding: .utf8)
        #expect(!exported.contains("xxx") && exported.split(separator: "\n").allSatisfy { $0.hasPrefix("{") })

        let toStandardOutput = try cli.signalscope("export", "t.sslog", "--jsonl", "-")
        #expect(toStandardOutput.standardOutput.hasPrefix("{"))
    }

    @Test func theToolNeverTracesItself() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        #expect(try cli.signalscope("record", "-o", "t.sslog", "--", plantedLeaks).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: cli.path("t.sslog")))
        let result = try cli.signalscope(
            ["check", "t.sslog", "--fail-on", "never"], environment: ["SIGNALSCOPE_TRACE": cli.path("t.sslog")])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: cli.path("t.sslog"))) == before, "the trace it reads is untouched")
        let demo = try cli.signalscope(["demo", "-o", "out"], environment: ["SIGNALSCOPE_TRACE": cli.path("tool.sslog")])
        #expect(demo.status == 0, "stderr: \(demo.standardError)")
        #expect(!FileManager.default.fileExists(atPath: cli.path("tool.sslog")))
    }
}
