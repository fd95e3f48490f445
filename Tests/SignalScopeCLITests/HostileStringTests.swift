import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// Names, values, error descriptions, type names, paths and stacks come from the traced
/// program, and so from whoever fed it data. One list of hostile strings goes into every
/// field of a trace, and every output format must come out safe and whole: terminals obey
/// no escape sequence, workflow commands start no command of their own, XML and JSON stay
/// well-formed, DOT stays DOT.
@Suite("Hostile strings in every output format", .timeLimit(.minutes(10)))
struct HostileStringTests {
    static let hostile = [
        "q\"uo'te", "cr\rlf\nx", "crlf\r\n::error::injected", "nul\0x", "esc\u{1B}[31mred\u{1B}]0;title\u{07}bel",
        "c1\u{9B}2Jcsi", "bidi\u{202E}txt.exe\u{202C}", "non\u{FFFE}char\u{FFFF}", "emoji😀👩‍👩‍👧", "<script>alert(1)</script>",
        "]]><!--", "::add-mask::secret", "100%0A%25", "back\\slash\\n",
    ]

    /// A trace whose every field holds a hostile string, with a finding of each kind that
    /// shows them: unhandled errors, a retain cycle between objects, an event after terminal.
    static func hostileTrace() -> CraftedLog {
        var log = CraftedLog()
        for (index, text) in hostile.enumerated() {
            let id = UInt64(index + 1)
            log.node(id, name: text, file: "App/\(text).swift", function: text)
            log.named(id, text)
            log.subscribe(id, to: id, file: "App/\(text).swift", function: text, line: 7)
            log.observerStored(id, handlers: 1)
            log.next(id, text)
            log.error(id, text)
        }
        log.violation(node: 1, stack: hostile.joined(separator: "\n"), file: "App/\(hostile[2]).swift", function: hostile[4], line: 9)
        log.snapshot()
        log.heapObject(1, typeName: "App.\(hostile[4])")
        log.heapObject(2, typeName: "App.\(hostile[2])")
        log.reference(from: 1, to: 2, path: hostile[1])
        log.reference(from: 2, to: 1, path: hostile[6])
        log.end()
        return log
    }

    /// Whether `text` holds a character no terminal should receive raw (line feeds
    /// separate the output's own lines and are allowed).
    static func unsafeForTerminal(_ text: String) -> [String] {
        text.unicodeScalars.filter { scalar in
            switch scalar.value {
            case 0x0A: false
            case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
            default: scalar.value & 0xFFFE == 0xFFFE
            }
        }.map { String(format: "U+%04X", $0.value) }
    }

    private func isWellFormedXML(_ path: String) throws -> Bool {
        let parser = XMLParser(data: try Data(contentsOf: URL(fileURLWithPath: path)))
        return parser.parse()
    }

    private func json(_ path: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)), options: [.fragmentsAllowed])
    }

    @Test("Text reports, stats and messages on a terminal show hostile text escaped, and act on none of it")
    func terminal() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        try Self.hostileTrace().write(to: cli.path("hostile.sslog"))
        let check = try cli.signalscope("check", "hostile.sslog", "--fail-on", "never", "--format", "text", "--format", "text=report.txt")
        #expect(check.status == 0, "\(check.standardError)")
        #expect(check.standardOutput.contains("unhandled-error") && check.standardOutput.contains("retain-cycle")
            && check.standardOutput.contains("event-after-terminal"))
        #expect(check.standardOutput.contains("esc\\u{1B}[31mred\\u{1B}]0;title\\u{7}bel"), "shown, so nothing is lost")
        let report = try String(contentsOfFile: cli.path("report.txt"), encoding: .utf8)
        let stats = try cli.signalscope("stats", "hostile.sslog")
        for (name, text) in [("check", check.standardOutput + check.standardError), ("text report", report), ("stats", stats.standardOutput + stats.standardError)] {
            #expect(Self.unsafeForTerminal(text).isEmpty, "\(name): \(Self.unsafeForTerminal(text))")
        }

        // The trace's own name, in an error and a warning.
        let badName = "bad\u{1B}[2J\u{202E}name\n.sslog"
        let missing = try cli.signalscope("stats", badName)
        #expect(missing.status == 1 && missing.standardError.split(separator: "\n").count == 1)
        #expect(Self.unsafeForTerminal(missing.standardError).isEmpty, "\(Self.unsafeForTerminal(missing.standardError))")
        var cut = Self.hostileTrace().bytes
        cut.removeLast(9)
        try Data(cut).write(to: URL(fileURLWithPath: cli.path(badName)))
        let warned = try cli.signalscope("check", badName, "--fail-on", "never", "--allow-incomplete")
        #expect(warned.standardError.contains("warning:"))
        #expect(Self.unsafeForTerminal(warned.standardOutput + warned.standardError).isEmpty)
    }

    @Test("GitHub annotations: one workflow command per finding, none started by a hostile string")
    func workflowCommands() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        try Self.hostileTrace().write(to: cli.path("hostile.sslog"))
        let result = try cli.signalscope("check", "hostile.sslog", "--fail-on", "never", "--format", "github", "--format", "json=r.json")
        let findings = try #require((try json(cli.path("r.json")) as? [String: Any])?["findings"] as? [Any])
        let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == findings.count, "one line per finding, got \(lines.count) for \(findings.count)")
        #expect(lines.allSatisfy { $0.hasPrefix("::error ") || $0.hasPrefix("::warning ") || $0.hasPrefix("::notice ") })
        #expect(!result.standardOutput.contains("\r"))
        #expect(!lines.contains { $0.hasPrefix("::add-mask::") })
        #expect(Self.unsafeForTerminal(result.standardOutput).isEmpty)
    }

    @Test("JUnit and every SVG are well-formed XML; JSON, SARIF, Chrome and JSON Lines parse and keep the text exactly")
    func documents() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        try Self.hostileTrace().write(to: cli.path("hostile.sslog"))
        let check = try cli.signalscope(
            "check", "hostile.sslog", "--fail-on", "never", "--format", "junit=r.xml", "--format", "json=r.json",
            "--format", "sarif=r.sarif")
        #expect(check.status == 0, "\(check.standardError)")
        for arguments in [
            ["graph", "hostile.sslog", "-o", "graph.svg"], ["graph", "hostile.sslog", "-o", "all.svg", "--no-collapse"],
            ["graph", "hostile.sslog", "-o", "graph.dot"], ["graph", "hostile.sslog", "-o", "graph.png"],
            ["graph", "hostile.sslog", "-o", "graph.pdf"], ["timeline", "hostile.sslog", "-o", "timeline.svg"],
            ["timeline", "hostile.sslog", "-o", "nodes.svg", "--lanes", "nodes"],
            ["export", "hostile.sslog", "--chrome-trace", "chrome.json", "--jsonl", "records.jsonl"],
            ["report", "hostile.sslog", "-o", "report.html"],
        ] {
            let result = try cli.signalscope(arguments)
            #expect(result.status == 0, "\(arguments): \(result.standardError)")
            #expect(!result.standardError.contains("Invalid UTF-8"), "Graphviz was handed text it could not lay out")
        }
        for file in ["r.xml", "graph.svg", "all.svg", "timeline.svg", "nodes.svg"] {
            #expect(try isWellFormedXML(cli.path(file)), "\(file) is not well-formed XML")
            let text = try String(contentsOfFile: cli.path(file), encoding: .utf8)
            #expect(!text.contains("<script"), "\(file) holds a raw <script>")
            #expect(text.contains("emoji😀"), "\(file) keeps characters beyond the BMP as they are")
        }
        // The report: well-formed, its own two scripts and no other, every name in its data exactly.
        #expect(try isWellFormedXML(cli.path("report.html")), "report.html is not well-formed XML")
        let page = try String(contentsOfFile: cli.path("report.html"), encoding: .utf8)
        #expect(page.components(separatedBy: "<script").count - 1 == 2)
        let pageData = try #require(page.firstMatch(of: /id="signalscope-data">(.*?)<\/script>/.dotMatchesNewlines())?.output.1)
        let reportData = try #require(try JSONSerialization.jsonObject(with: Data(pageData.utf8)) as? [String: Any])
        let reportValues = (reportData["events"] as? [[Any]] ?? []).compactMap { $0[3] as? String }
        #expect(Set(reportValues) == Set(Self.hostile), "every value and error, exactly")

        // DOT: every hostile name stays inside its quoted string, so Graphviz drew each node.
        let dot = try String(contentsOfFile: cli.path("graph.dot"), encoding: .utf8)
        #expect(Self.unsafeForTerminal(dot.replacingOccurrences(of: "\n", with: "")).isEmpty)

        let report = try #require(try json(cli.path("r.json")) as? [String: Any])
        let messages = (report["findings"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
        for text in Self.hostile { #expect(messages.contains { $0.contains(text) }, "the JSON report keeps \(text.debugDescription) exactly") }
        _ = try json(cli.path("r.sarif"))
        let chrome = try #require(try json(cli.path("chrome.json")) as? [String: Any])
        let values = (chrome["traceEvents"] as? [[String: Any]] ?? []).compactMap { ($0["args"] as? [String: Any])?["value"] as? String }
        #expect(Set(values) == Set(Self.hostile))
        let lines = try String(contentsOfFile: cli.path("records.jsonl"), encoding: .utf8).split(separator: "\n")
        for line in lines { _ = try JSONSerialization.jsonObject(with: Data(line.utf8)) }
    }

    @Test("A baseline of hostile findings is written as JSON and, read back, matches every one of them")
    func baseline() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        try Self.hostileTrace().write(to: cli.path("hostile.sslog"))
        let written = try cli.signalscope("check", "hostile.sslog", "--fail-on", "never", "--write-baseline", "baseline.json")
        #expect(written.status == 0, "\(written.standardError)")
        _ = try json(cli.path("baseline.json"))
        let checked = try cli.signalscope("check", "hostile.sslog", "--fail-on", "warning", "--baseline", "baseline.json", "--format", "json")
        #expect(checked.status == 0, "every finding is baseline: \(checked.standardOutput)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(checked.standardOutput.utf8)) as? [String: Any])
        let findings = report["findings"] as? [[String: Any]] ?? []
        #expect(!findings.isEmpty)
    }
}
