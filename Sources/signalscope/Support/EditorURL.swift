import ArgumentParser
import Foundation
import SignalScopeTools

/// `--editor-url`: how pictures link to source lines (`graph`, `report`).
struct EditorURLOption: ParsableArguments {
    @Option(
        name: .customLong("editor-url"),
        help: ArgumentHelp(
            "Link source sites to an editor: a URL with {path} and {line}, e.g. 'vscode://file/{path}:{line}'.",
            valueName: "url"))
    var template: String?

    func validate() throws {
        if let template, !template.contains("{path}") {
            throw CLIError("--editor-url needs {path} where the file goes (and {line}), e.g. 'vscode://file/{path}:{line}'")
        }
    }

    /// The links, with files found under the current directory.
    var links: SourceLinks? {
        template.map { template in
            let resolver = SourceResolver()
            return SourceLinks(template: template) { resolver.absolutePath(for: $0) }
        }
    }
}
