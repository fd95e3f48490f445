import ArgumentParser
import SignalScopeTools

/// `signalscope rules`: every rule `check` applies, with its severity and what it finds.
struct Rules: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the rules check applies, with their severity and what each finds.",
        discussion: "docs/analyzers.md explains each rule with an example and the usual fix."
    )

    func run() {
        let width = RuleID.allCases.map(\.rawValue.count).max() ?? 0
        for rule in RuleID.allCases {
            let id = rule.rawValue.padding(toLength: width, withPad: " ", startingAt: 0)
            let severity = rule.severity.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)
            standardOutput("\(id)  \(severity)  \(rule.summary)")
        }
    }
}
