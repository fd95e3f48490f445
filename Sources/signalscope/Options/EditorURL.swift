import ArgumentParser
import Foundation
import SignalScopeTools

/// `--editor-url`: how pictures link to source lines (`graph`, `report`).
struct EditorURLOption: ParsableArguments {
    @Option(
        name: .customLong("editor-url"),
        help: ArgumentHelp(
            "Link source sites to an editor: a URL with {path} and {line}, e.g. 'vscode://file/{path}:{line}' (schemes: \(SourceLinks.editorSchemes.joined(separator: ", "))).",
            valueName: "url"))
    var template: String?

    func validate() throws {
        do {
            _ = try SourceLinks(editorTemplate: template, sources: SourceResolver())
        } catch {
            throw CLIError("--editor-url: \(error.description)")
        }
    }

    /// The links to the files the project under the current directory holds, through the
    /// editor; `nil` without `--editor-url`.
    var links: SourceLinks? {
        template.flatMap { try? SourceLinks(editorTemplate: $0, sources: SourceResolver()) }
    }
}
