import Foundation
import PackagePlugin

/// Compiles a target's text assets, the files in its folders named `Assets`, into it as
/// string literals: `EmbeddedText.report_js` for `Report/Assets/report.js` (named as SwiftPM
/// names resources). The target excludes those folders from its sources.
///
/// Why not SwiftPM's `resources: [.embedInCode(_:)]`: it embeds a file as an array literal of
/// its bytes, which took the compiler about ten seconds of a processor for the report's 40 KB
/// script, in every debug and release build (`swiftc -c` of the generated file alone); the
/// same text as a string literal takes a fraction of a second, and needs no decoding at run
/// time.
@main
struct EmbeddedText: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let directory = target.directoryURL
        let assets = try FileManager.default.subpathsOfDirectory(atPath: directory.path)
            .filter { $0.split(separator: "/").dropLast().contains("Assets") }
            .sorted()
            .map { directory.appending(path: $0) }
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
        guard !assets.isEmpty else { return [] }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedText.swift")
        return [
            .buildCommand(
                displayName: "Embedding the text assets of \(target.name)",
                executable: try context.tool(named: "embed-text").url,
                arguments: [output.path] + assets.map(\.path),
                inputFiles: assets,
                outputFiles: [output])
        ]
    }
}
