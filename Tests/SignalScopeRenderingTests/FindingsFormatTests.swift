import Foundation
import SignalScopeTools
import Testing

/// The formats `check --format` writes are a library: each renders a ``CheckReport`` by
/// itself, and a format written elsewhere plugs into the same report.
@Suite("Findings formats", .timeLimit(.minutes(10)))
struct FindingsFormatTests {
    static let report = CheckReport(
        findings: [
            Finding(
                rule: .selfCapturedObserver, severity: .error, message: "ProfileScreen is captured by its observer",
                subject: FindingSubject(kind: .objects, name: "ProfileScreen"),
                location: TraceSite(file: "App/Profile.swift", line: 12, function: "init()"),
                steps: ["ProfileScreen.name holds property (\(TraceSite(file: "App/Profile.swift", line: 9, function: "init()")))"], hint: "capture [weak self]"),
            Finding(
                rule: .leakedSubscription, severity: .warning, message: "a subscription never ends",
                subject: FindingSubject(kind: .node, name: "interval"),
                location: TraceSite(file: "App/Clock.swift", line: 3, function: "start()"),
                steps: ["subscription #4 is still live"], hint: "keep the disposable"),
        ],
        threshold: .error, traceWarnings: [])

    @Test("Every format has its own name and renders the failing finding, its file and its fix")
    func everyFormatRenders() throws {
        let names = FindingsFormats.all.map(\.name)
        #expect(Set(names).count == names.count, "\(names)")
        #expect(names == ["text", "json", "junit", "sarif", "github", "html"])
        for format in FindingsFormats.all where format.name != "html" {
            let text = try format.render(Self.report, FindingsFormatOptions())
            #expect(text.contains("Profile.swift"), "\(format.name): \(text)")
            #expect(text.contains("ProfileScreen is captured by its observer"), "\(format.name)")
            #expect(!text.contains("\u{1B}["), "\(format.name) paints only when asked")
        }
        #expect(try FindingsFormats.named("html")?.render(Self.report, FindingsFormatOptions(page: { "<page>" })) == "<page>")
        #expect(FindingsFormats.named("xml") == nil)
    }

    @Test("Each rule's SARIF help link is the anchor GitHub gives its section of docs/analyzers.md")
    func sarifHelpLinksResolve() throws {
        let document = try String(contentsOf: ReportScriptTests.repository.appendingPathComponent("docs/analyzers.md"), encoding: .utf8)
        // GitHub's anchor of a heading: lowercased, punctuation but hyphens dropped, spaces as hyphens.
        let anchors = Set(document.split(separator: "\n").filter { $0.hasPrefix("## ") }.map { heading in
            String(heading.dropFirst(3).lowercased().filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == " " })
                .replacingOccurrences(of: " ", with: "-")
        })
        for rule in RuleID.allCases {
            let anchor = try #require(SARIFFormat.helpURI(for: rule).split(separator: "#").last.map(String.init))
            #expect(anchors.contains(anchor), "\(rule): \(anchor) is no heading's anchor")
        }
    }

    @Test("SARIF's code flow is the proving steps, each at the site it names, from the steps' data, not their text")
    func sarifCodeFlow() throws {
        let sarif = try #require(
            JSONSerialization.jsonObject(with: Data(SARIFFormat().render(Self.report, FindingsFormatOptions()).utf8)) as? [String: Any])
        let results = try #require((sarif["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        let flow = try #require(((results[0]["codeFlows"] as? [[String: Any]])?.first?["threadFlows"] as? [[String: Any]])?.first)
        let locations = try #require(flow["locations"] as? [[String: Any]])
        let step = try #require(locations.first?["location"] as? [String: Any])
        #expect((step["message"] as? [String: Any])?["text"] as? String == "ProfileScreen.name holds property (App/Profile.swift:9)")
        let physical = try #require(step["physicalLocation"] as? [String: Any])
        #expect((physical["region"] as? [String: Any])?["startLine"] as? Int == 9)
        #expect((physical["artifactLocation"] as? [String: Any])?["uri"] as? String == "App/Profile.swift")
        // A step that names no site has words and no place.
        let second = try #require(((results[1]["codeFlows"] as? [[String: Any]])?.first?["threadFlows"] as? [[String: Any]])?.first?["locations"] as? [[String: Any]])
        #expect((second.first?["location"] as? [String: Any])?["physicalLocation"] == nil)
    }

    final class EditedProfile {
        let name = MutableProperty("")
        var saved = ""
    }

    @Test("JSON carries each step as data (the sites it names, resolved; the trace's entities it names; the references it crosses; its mark) and every entity of the finding, ids as export --jsonl writes them")
    func jsonStepsAreData() throws {
        weak var leaked: EditedProfile?
        let trace = Tracer.record {
            let profile = EditedProfile()
            leaked = profile
            profile.name.signal.subscribeNext { profile.saved = $0 }
        }
        #expect(leaked != nil, "ground truth: the observer keeps the profile that keeps its property")
        let report = CheckReport(findings: trace.analyze().findings, threshold: .error, traceWarnings: [])
        let json = try #require(
            JSONSerialization.jsonObject(with: Data(JSONFormat().render(report, FindingsFormatOptions()).utf8)) as? [String: Any])
        let finding = try #require((json["findings"] as? [[String: Any]])?.first)
        #expect(finding["rule"] as? String == "self-captured-observer")
        let steps = try #require(finding["steps"] as? [[String: Any]])
        #expect(steps.map { $0["text"] as? String ?? "" } == finding["path"] as? [String])
        let suspect = try #require(steps.first { $0["mark"] as? String == "suspect" }, "\(steps)")
        // The subscription's next closure captures the profile: the reference names the closure.
        let crossed = try #require(suspect["references"] as? [[String: Any]])
        #expect((crossed.last?["closure"] as? [String: String])?["role"] == "next closure", "\(suspect)")
        #expect(crossed.last?["to"] as? String == (suspect["names"] as? [[String: String]])?.last?["entity"], "\(suspect)")
        #expect(crossed.allSatisfy { ($0["from"] as? String ?? "").wholeMatch(of: /o[0-9]+/) != nil }, "\(crossed)")
        let named = steps.flatMap { $0["names"] as? [[String: String]] ?? [] }
        #expect(named.contains { $0["name"] == "EditedProfile" }, "\(named)")
        #expect(named.allSatisfy { ($0["entity"] ?? "").wholeMatch(of: /[nso][0-9]+/) != nil }, "\(named)")
        let sites = steps.flatMap { $0["sites"] as? [[String: Any]] ?? [] }
        #expect(sites.contains { ($0["file"] as? String)?.hasSuffix("Tests/SignalScopeRenderingTests/FindingsFormatTests.swift") == true && $0["line"] is Int },
            "\(sites)")
        let entities = try #require(finding["entities"] as? [String])
        #expect(!entities.isEmpty && entities.allSatisfy { $0.wholeMatch(of: /[nso][0-9]+/) != nil }, "\(entities)")
    }

    @Test("Only the text format paints, and only when asked")
    func colour() throws {
        #expect(FindingsFormats.all.filter(\.usesColor).map(\.name) == ["text"])
        #expect(TextFormat().render(Self.report, FindingsFormatOptions(colored: true)).contains("\u{1B}["))
    }

    /// A format as a tool outside the library would write one: one type, the same report.
    struct CountFormat: FindingsFormat {
        let name = "count"
        func render(_ report: CheckReport, _ options: FindingsFormatOptions) -> String {
            "\(report.failing.count) failing of \(report.entries.count)\n"
        }
    }

    @Test("A format written outside the library renders the same report, baseline included")
    func formatOutsideTheLibrary() throws {
        #expect(CountFormat().render(Self.report, FindingsFormatOptions()) == "1 failing of 2\n")
        let accepted = CheckReport(
            findings: Self.report.entries.map(\.finding), threshold: .warning,
            baseline: [Self.report.entries[0].finding.fingerprint], traceWarnings: [])
        #expect(CountFormat().render(accepted, FindingsFormatOptions()) == "1 failing of 2\n")
        #expect(accepted.entries.map(\.isBaseline) == [true, false])
    }
}
