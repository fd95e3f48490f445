import Foundation
import SignalScopeTools
import Testing

@Suite("Recording with no code change", .timeLimit(.minutes(10)))
struct EnvironmentRecordingTests {
    /// The demo program, built next to the test bundle.
    private static var runtimeTour: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("RuntimeTour")
    }

    private static func run(_ executable: URL, environment: [String: String]) throws -> (status: Int32, errors: String) {
        let process = Process()
        process.executableURL = executable
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let output = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    @Test("SIGNALSCOPE_TRACE records a whole program run, written out at exit")
    func environmentVariable() throws {
        let executable = Self.runtimeTour
        try #require(FileManager.default.isExecutableFile(atPath: executable.path), "build the package first (swift build)")
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("signalscope-\(UUID()).sslog")
        defer { try? FileManager.default.removeItem(at: url) }

        let result = try Self.run(executable, environment: ["SIGNALSCOPE_TRACE": url.path, "SIGNALSCOPE_VALUES": "1"])
        #expect(result.status == 0)
        #expect(result.errors.isEmpty)

        let trace = try Trace(contentsOf: url)
        #expect(trace.hasEnd)
        #expect(trace.warnings.isEmpty)
        let names = Set(trace.nodes.values.map(\.name))
        #expect(names.isSuperset(of: ["createSignal", "subject", "map", "switchToLatest", "interval", "executionSignals"]))
        func delivered(by node: Trace.Node) -> [String?] {
            trace.subscriptions.values.filter { $0.node == node.id }.flatMap(\.values)
        }
        let switches = trace.nodes.values.filter { $0.name == "switchToLatest" }
        #expect(switches.count == 2, "the search and the countdown")
        let search = try #require(switches.first { delivered(by: $0).contains { $0?.hasPrefix("hints") == true } })
        #expect(search.site.file == "RuntimeTour/main.swift")
        #expect(delivered(by: search) == ["hints for \"swift\""], "only the last search result was delivered")
    }

    @Test("%p in SIGNALSCOPE_TRACE becomes the process id, one trace per process")
    func processIDPattern() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("signalscope-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let pattern = folder.appendingPathComponent("run-%p.sslog").path
        for _ in 0..<2 {
            #expect(try Self.run(Self.runtimeTour, environment: ["SIGNALSCOPE_TRACE": pattern]).status == 0)
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names.count == 2)
        for name in names {
            #expect(name.hasPrefix("run-") && !name.contains("%p") && Int(name.dropFirst(4).dropLast(6)) != nil)
            #expect(try Trace(contentsOf: folder.appendingPathComponent(name)).hasEnd)
        }
    }

    @Test("A SIGNALSCOPE_TRACE path that cannot be written is reported and the program still runs")
    func unwritableEnvironmentPath() throws {
        let executable = Self.runtimeTour
        try #require(FileManager.default.isExecutableFile(atPath: executable.path), "build the package first (swift build)")
        let result = try Self.run(executable, environment: ["SIGNALSCOPE_TRACE": "/nonexistent-directory/t.sslog"])
        #expect(result.status == 0)
        #expect(result.errors == "signalscope: SIGNALSCOPE_TRACE: cannot create trace file /nonexistent-directory/t.sslog: No such file or directory\n")
    }
}
