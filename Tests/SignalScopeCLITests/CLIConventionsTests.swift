import Foundation
import SignalScopeTools
import Testing

/// The conventions of Swift command-line tools: a version, colour that obeys NO_COLOR and
/// TERM=dumb, option values listed in help and completions, rules described by the tool.
@Suite("CLI conventions", .timeLimit(.minutes(10)))
struct CLIConventionsTests {
    let plantedLeaks = CLIRunner.product("PlantedLeaks")

    @Test func versionIsTheLibrarysVersion() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        let version = try cli.signalscope("--version")
        #expect(version.status == 0)
        #expect(version.standardOutput == SignalScopeVersion.current + "\n")
        let changelog = try String(contentsOfFile: CLIRunner.repository.appendingPathComponent("CHANGELOG.md").path, encoding: .utf8)
        #expect(changelog.contains("## \(SignalScopeVersion.current)"), "the CHANGELOG has an entry for the version")
    }

    @Test("Every rule is listed by `rules` with its severity and summary, and by `check --help`")
    func rulesAreListed() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        let rules = try cli.signalscope("rules")
        #expect(rules.status == 0)
        let help = try cli.signalscope("check", "--help").standardOutput
        for rule in RuleID.allCases {
            #expect(rules.standardOutput.split(separator: "\n").contains {
                $0.hasPrefix(rule.rawValue) && $0.contains(rule.severity.rawValue) && $0.hasSuffix(rule.summary)
            }, "\(rule)")
            #expect(help.replacingOccurrences(of: "\n", with: " ").contains(rule.rawValue), "\(rule)")
        }
    }

    @Test("Options with a fixed set of values list them in help and completions, and refuse others by name")
    func enumeratedOptions() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        // Help wraps its lines: compare with runs of white space as one space.
        func help(_ command: String) throws -> String {
            try cli.signalscope(command, "--help").standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
        #expect(try help("check").contains("values: error, warning, never"))
        #expect(try help("check").contains("values: auto, always, never"))
        #expect(try help("graph").contains("values: dot, sfdp"))
        #expect(try help("graph").contains("values: svg, png, pdf, dot"))
        #expect(try help("timeline").contains("values: subscriptions, nodes"))
        let wrong = try cli.signalscope("graph", "t.sslog", "-o", "g.svg", "--engine", "neato")
        #expect(wrong.status == 1)
        #expect(wrong.standardError.contains("neato") && wrong.standardError.split(separator: "\n").count == 1, "\(wrong.standardError)")
        for shell in ["bash", "zsh", "fish"] {
            let script = try cli.signalscope("--generate-completion-script", shell)
            #expect(script.status == 0)
            #expect(script.standardOutput.contains("sfdp") && script.standardOutput.contains("self-captured-observer"), "\(shell)")
        }
    }

    @Test("Colour: auto colours a terminal unless NO_COLOR or TERM=dumb; always and never override")
    func colour() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        _ = try cli.signalscope("record", "-o", "t.sslog", "--", plantedLeaks)
        let escape = "\u{1B}["
        func inTerminal(_ environment: [String: String], _ extra: [String] = []) throws -> String {
            // `script` gives the command a pseudo-terminal for standard output.
            let command = ([CLIRunner.product("signalscope"), "check", "t.sslog"] + extra).joined(separator: " ")
            let result = try cli.run("/usr/bin/script", ["-qec", command, "/dev/null"], environment: environment)
            return result.standardOutput
        }
        let coloured = try inTerminal(["TERM": "xterm", "NO_COLOR": ""])
        #expect(coloured.contains(escape), "\(coloured)")
        #expect(try !inTerminal(["TERM": "xterm", "NO_COLOR": "1"]).contains(escape))
        #expect(try !inTerminal(["TERM": "dumb"]).contains(escape))
        #expect(try !inTerminal(["TERM": "xterm"], ["--color", "never"]).contains(escape))
        #expect(try cli.signalscope("check", "t.sslog", "--color", "always").standardOutput.contains(escape))
        #expect(try !cli.signalscope("check", "t.sslog").standardOutput.contains(escape), "a pipe is not a terminal")
    }

    @Test("graph -o - writes the picture alone to standard output")
    func graphToStandardOutput() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        _ = try cli.signalscope("record", "-o", "t.sslog", "--", plantedLeaks)
        let svg = try cli.signalscope("graph", "t.sslog", "-o", "-")
        #expect(svg.status == 0)
        #expect(svg.standardOutput.hasPrefix("<?xml") && svg.standardOutput.hasSuffix("</svg>\n"))
        #expect(svg.standardError.contains("wrote standard output"))
        let dot = try cli.signalscope("graph", "t.sslog", "-o", "-", "--format", "dot")
        #expect(dot.standardOutput.hasPrefix("digraph"))
        let timeline = try cli.signalscope("timeline", "t.sslog", "-o", "-")
        #expect(timeline.standardOutput.hasPrefix("<svg") || timeline.standardOutput.hasPrefix("<?xml"))
    }

    @Test("stats speaks of what the program did, not of the log's record kinds")
    func statsInUserTerms() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        _ = try cli.signalscope("record", "-o", "t.sslog", "--", plantedLeaks)
        let stats = try cli.signalscope("stats", "t.sslog").standardOutput
        #expect(stats.contains("subscriptions") && stats.contains("values sent"))
        for recordKind in ["records by kind", "heap-object", "observer-stored", "node-named", "capture"] {
            #expect(!stats.contains(recordKind), "\(recordKind)")
        }
    }
}
