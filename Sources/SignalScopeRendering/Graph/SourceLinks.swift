import Foundation
import SignalScopeAnalysis
import SignalScopeTracing

/// Links from a report or a picture to the source lines it shows.
///
/// A trace may come from anyone (a fork's CI artifact, a bug report), and its file names are
/// whatever its writer put there: `javascript:…`, `//host/share/x.swift`, `../Secret.swift`.
/// So a path from a trace never becomes a link by itself: a site is linked only when the
/// project holds its file (``SourceResolver`` finds it, never outside its root), and the
/// link is built from the file the project holds, percent-encoded, never from the trace's
/// text. With an editor's template (`vscode://file/{path}:{line}`), `{path}` becomes that
/// file's absolute path and `{line}` the line, and the template's scheme must be one of
/// ``editorSchemes``; without one, the link is the file's path relative to the project,
/// after `./`. Every link is checked once more after it is made: it has the template's
/// scheme, or, without a template, no scheme and no `//` at all.
public struct SourceLinks {
    /// The URL schemes an editor template may use: the editors' own and `file`.
    public static let editorSchemes = ["file", "idea", "subl", "txmt", "vscode", "xed"]

    /// Why an editor template was refused, in one line.
    public struct InvalidTemplate: Error, CustomStringConvertible {
        public let description: String
    }

    private let template: String?
    private let scheme: String?
    private let sources: SourceResolver

    /// Links to the files `sources` finds, through `editorTemplate` when there is one.
    public init(editorTemplate: String? = nil, sources: SourceResolver) throws(InvalidTemplate) {
        if let editorTemplate {
            guard editorTemplate.contains("{path}") else {
                throw InvalidTemplate(description: "the editor URL needs {path} where the file goes (and {line}), e.g. 'vscode://file/{path}:{line}'")
            }
            guard let scheme = Self.scheme(of: editorTemplate), Self.editorSchemes.contains(scheme) else {
                throw InvalidTemplate(
                    description: "the editor URL must start with one of the schemes \(Self.editorSchemes.map { "\($0):" }.joined(separator: ", ")), e.g. 'vscode://file/{path}:{line}'")
            }
            self.scheme = scheme
        } else {
            scheme = nil
        }
        template = editorTemplate
        self.sources = sources
    }

    /// The link to `site`, or `nil` when the project holds no such file.
    public func url(for site: TraceSite) -> String? {
        guard let absolute = sources.absolutePath(for: site.file) else { return nil }
        let link =
            if let template {
                template.replacingOccurrences(of: "{path}", with: Self.encoded(absolute))
                    .replacingOccurrences(of: "{line}", with: String(site.line))
            } else {
                "./" + Self.encoded(sources.path(for: site.file))
            }
        let isInert = scheme.map { Self.scheme(of: link) == $0 } ?? (!link.contains(":") && !link.contains("//"))
        return isInert ? link : nil
    }

    /// Every character but unreserved ones and `/` percent-encoded: `:`, `?`, `#`, `&` and
    /// quotes in a file name can never end the path or start another part of the URL.
    private static func encoded(_ path: String) -> String {
        path.addingPercentEncoding(withAllowedCharacters: pathCharacters) ?? ""
    }

    private static let pathCharacters = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/")

    /// The scheme `text` starts with, lowercased, if it starts with one.
    private static func scheme(of text: String) -> String? {
        guard let match = text.prefixMatch(of: /([A-Za-z][A-Za-z0-9+.\-]*):/) else { return nil }
        return match.output.1.lowercased()
    }
}
