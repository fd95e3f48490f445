import Foundation
import LeakCorpus
import SignalScopeTools

// Runs the leak corpus outside the test runner, one thing per process:
//
//   signalscope-corpus --list              the scenarios' names, one a line
//   signalscope-corpus <name>              one scenario: a JSON line with what it must
//                                          produce and what the analysis found; then the
//                                          process exits with nothing of the scenario's
//                                          held, so that LeakSanitizer judges it too
//   signalscope-corpus --repeat <growth scenario> [--fixed]
//                                          a growth scenario five times, with a checkpoint
//                                          after each (run under `signalscope check`, which
//                                          records it through SIGNALSCOPE_TRACE); then what
//                                          it left alive, on a line
//   signalscope-corpus --stress <count>    <count> recordings, each taken while eight
//                                          threads make and free objects with weak and
//                                          strong captures (scripts/lsan-compare.sh runs it
//                                          under AddressSanitizer)
//
// Exit status: 0 done, 1 a stress recording found what it should not have, 64 bad usage.

func usage() -> Never {
    FileHandle.standardError.write(Data("usage: signalscope-corpus --list | <scenario name> | --repeat <growth scenario> [--fixed] | --stress <count>\n".utf8))
    exit(64)
}

/// Runs one scenario and returns its line of JSON; everything it made is released when this
/// returns (the trace holds no references to the program's objects).
func report(_ scenario: (name: String, run: @Sendable () -> CorpusOutcome)) -> String {
    let outcome = scenario.run()
    let report = outcome.trace.analyze()
    if ProcessInfo.processInfo.environment["CORPUS_DEBUG"] != nil {
        for object in outcome.trace.heap.objects.values where object.category == .user {
            FileHandle.standardError.write(Data("object \(object.typeName) \(String(object.address ^ 0xFFFF_0000_0000_0000, radix: 16))\n".utf8))
        }
    }
    func entries(_ items: [(RuleID, Int)]) -> [[String: Any]] { items.map { ["rule": $0.0.rawValue, "line": $0.1] } }
    let object: [String: Any] = [
        "name": scenario.name,
        "expected": entries(outcome.expected.map { ($0.rule, $0.line) }),
        "found": entries(outcome.findings.map { ($0.rule, $0.location.line) }),
        "limitations": report.limitations,
    ]
    let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    return String(decoding: data, as: UTF8.self)
}

/// The app a growth scenario runs in (`--repeat`): it lives as long as the process, as an
/// app's session, caches and registries do.
let app = GrowthScenario.App()

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "--list":
    for scenario in LeakCorpus.scenarios { print(scenario.name) }
case "--repeat":
    guard (2...3).contains(arguments.count), let scenario = GrowthScenario(rawValue: arguments[1]),
        arguments.count == 2 || arguments[2] == "--fixed"
    else { usage() }
    for _ in 0..<GrowthScenario.repetitions {
        scenario.openAndClose(fixed: arguments.count == 3, in: app)
        Tracer.checkpoint("screen closed")
    }
    app.sendLogin()
    print("\(app.screensAlive) screens alive; \(app.loginsSeen.load(ordering: .relaxed)) observers saw a login")
case "--stress":
    guard arguments.count == 2, let count = Int(arguments[1]), count > 0 else { usage() }
    exit(WalkerStress.run(recordings: count) ? 0 : 1)
case let name? where arguments.count == 1:
    guard let scenario = LeakCorpus.scenarios.first(where: { $0.name == name }) else {
        FileHandle.standardError.write(Data("signalscope-corpus: no scenario named '\(name)'\n".utf8))
        exit(64)
    }
    // On a thread of its own, which has exited when LeakSanitizer looks: no stale word on a
    // stack it scans can keep what the scenario leaked reachable.
    let thread = Thread {
        let line = report(scenario) + "\n"
        // Written at once: LeakSanitizer ends the process without flushing buffered output.
        FileHandle.standardOutput.write(Data(line.utf8))
    }
    thread.start()
    while !thread.isFinished { usleep(1_000) }
default:
    usage()
}
