import Foundation
import PackagePlugin

/// `swift package signalscope-check [check options] -- <command>`: runs `signalscope check`
/// from the package's own build, so that a package depending on SignalScope can gate on
/// leaks without installing the tool. Arguments and exit codes are those of `check`.
///
/// The plugin asks the package manager to build the tool when it runs rather than naming it
/// as a dependency: a dependency is built for the host, a second copy of the tool and of
/// every library under it, in every `swift build` of this package and its tests.
@main
struct SignalScopeCheck: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try Self.buildTool(with: packageManager)
        let process = Process()
        process.executableURL = tool
        process.arguments = ["check"] + Self.withOwnScratchPath(arguments, in: context.pluginWorkDirectoryURL)
        process.currentDirectoryURL = context.package.directoryURL
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        // signalscope's standard error is passed on line by line as it comes, except its
        // one-line error, which becomes the plugin's: SwiftPM prints a plugin's thrown error,
        // and the same error twice would read as two problems.
        var fatal: String?
        var pending = Data()
        func pass(_ line: Data) {
            let text = String(decoding: line, as: UTF8.self)
            if text.hasPrefix(Self.errorPrefix) {
                fatal = String(text.dropFirst(Self.errorPrefix.count)).trimmingCharacters(in: .newlines)
            } else {
                FileHandle.standardError.write(line)
            }
        }
        while case let chunk = errors.fileHandleForReading.availableData, !chunk.isEmpty {
            pending.append(chunk)
            while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                pass(pending[...end])
                pending = Data(pending[(end + 1)...])
            }
        }
        if !pending.isEmpty { pass(pending) }
        process.waitUntilExit()
        // A plugin cannot choose its exit code; throwing makes `swift package` exit non-zero,
        // which is what a CI gate needs.
        guard process.terminationStatus == 0 else { throw CheckFailed(status: process.terminationStatus, error: fatal) }
    }

    private static let errorPrefix = "signalscope: error: "

    /// Builds the `signalscope` product (debug, as `swift build` would) and returns its path.
    static func buildTool(with packageManager: PackageManager) throws -> URL {
        let build = try packageManager.build(.product("signalscope"), parameters: .init(configuration: .debug, logging: .concise))
        guard build.succeeded else { throw ToolUnavailable(reason: "building signalscope failed:\n\(build.logText)") }
        guard let tool = build.builtArtifacts.first(where: { $0.kind == .executable && $0.url.lastPathComponent == "signalscope" })
        else { throw ToolUnavailable(reason: "the package manager built signalscope but did not say where") }
        return tool.url
    }

    /// `swift build|test|run` wrapped by the plugin would wait forever for the build folder
    /// that the running `swift package` holds locked, so it builds in the plugin's own folder.
    static func withOwnScratchPath(_ arguments: [String], in folder: URL) -> [String] {
        guard let separator = arguments.firstIndex(of: "--"), arguments.count > separator + 2,
            URL(fileURLWithPath: arguments[separator + 1]).lastPathComponent == "swift",
            ["build", "test", "run"].contains(arguments[separator + 2]),
            !arguments.contains(where: { $0.hasPrefix("--scratch-path") })
        else { return arguments }
        var adjusted = arguments
        adjusted.insert(contentsOf: ["--scratch-path", folder.appendingPathComponent("build").path], at: separator + 3)
        return adjusted
    }
}

/// The tool could not be built or found.
struct ToolUnavailable: Error, CustomStringConvertible {
    let reason: String
    var description: String { reason }
}

/// What signalscope check's exit code means (docs/cli.md), in one line.
struct CheckFailed: Error, CustomStringConvertible {
    let status: Int32
    /// signalscope's own one-line error, for a check that could not run.
    let error: String?

    var description: String {
        switch status {
        case 1: "signalscope check could not run: \(error ?? "see its output")"
        case 2: "signalscope check found failing findings"
        case 3: "signalscope check could not see the whole heap (--allow-incomplete accepts that)"
        case 4: "the checked command exited with a non-zero status"
        case 129, 130, 143: "signalscope check was interrupted, and stopped the checked command"
        default: "signalscope check exited with status \(status)"
        }
    }
}
