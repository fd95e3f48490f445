import Foundation
import PackagePlugin

/// `swift package signalscope-check [check options] -- <command>`: runs `signalscope check`
/// from the package's own build, so that a package depending on SignalScope can gate on
/// leaks without installing the tool. Arguments and exit codes are those of `check`.
@main
struct SignalScopeCheck: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try context.tool(named: "signalscope")
        let process = Process()
        process.executableURL = tool.url
        process.arguments = ["check"] + Self.withOwnScratchPath(arguments, in: context.pluginWorkDirectoryURL)
        process.currentDirectoryURL = context.package.directoryURL
        try process.run()
        process.waitUntilExit()
        // A plugin cannot choose its exit code; failing with the check's summary makes
        // `swift package` exit non-zero, which is what a CI gate needs.
        guard process.terminationStatus == 0 else {
            let failure = CheckFailed(status: process.terminationStatus)
            Diagnostics.error(failure.description)
            throw failure
        }
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

struct CheckFailed: Error, CustomStringConvertible {
    let status: Int32
    var description: String {
        switch status {
        case 2: "signalscope check found failing findings (exit 2)"
        case 1: "signalscope check could not run (exit 1)"
        default: "the checked command failed (exit \(status))"
        }
    }
}
