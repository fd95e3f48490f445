import Foundation
import Testing

/// Runs the built `signalscope` (and the example programs it wraps) as a user would.
struct CLIRunner {
    struct Result {
        let status: Int32
        let standardOutput: String
        let standardError: String
    }

    /// Where SwiftPM put the products the test target depends on.
    static let productsFolder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()

    static func product(_ name: String) -> String { productsFolder.appendingPathComponent(name).path }

    /// A fresh folder to run in, removed by the caller's `defer`.
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("signalscope-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func removeFolder() { try? FileManager.default.removeItem(at: folder) }

    /// Runs `signalscope` with `arguments` in the folder and waits for it.
    func signalscope(_ arguments: String...) throws -> Result {
        try signalscope(arguments)
    }

    /// Past `timeLimit` seconds the run is killed (status `SIGKILL`), so that a command that
    /// hangs or turns quadratic fails its test instead of stalling the suite.
    func signalscope(_ arguments: [String], environment: [String: String] = [:], timeLimit: Double = 300) throws -> Result {
        try run(Self.product("signalscope"), arguments, environment: environment, timeLimit: timeLimit)
    }

    /// Runs any program in the folder, as ``signalscope(_:environment:timeLimit:)`` runs the tool.
    func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:], timeLimit: Double = 300) throws -> Result {
        let process = Process()
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = folder
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let child = process.processIdentifier
        let watchdog = DispatchWorkItem { kill(child, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeLimit, execute: watchdog)
        defer { watchdog.cancel() }
        // Read before waiting, so that a full pipe cannot block the child.
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            standardOutput: String(decoding: outData, as: UTF8.self),
            standardError: String(decoding: errData, as: UTF8.self))
    }

    /// The package's root folder.
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `// planted: <rule>` markers of an example's `main.swift`, as `rule:line`: the
    /// findings `check` must report for it, exactly.
    static func plantedMarkers(in example: String) throws -> Set<String> {
        let source = repository.appendingPathComponent("Examples/\(example)/main.swift")
        let lines = try String(contentsOf: source, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        var markers: Set<String> = []
        for (index, line) in lines.enumerated() {
            if let range = line.range(of: "// planted: ") {
                markers.insert("\(line[range.upperBound...]):\(index + 1)")
            }
        }
        return markers
    }

    /// The `rule:line` of each finding of a decoded JSON report.
    static func ruleAndLine(of findings: [[String: Any]]) -> Set<String> {
        Set(findings.compactMap { finding -> String? in
            guard let rule = finding["rule"] as? String, let location = finding["location"] as? [String: Any],
                let line = location["line"] as? Int
            else { return nil }
            return "\(rule):\(line)"
        })
    }
}
