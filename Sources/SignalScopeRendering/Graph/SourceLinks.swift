import Foundation
import SignalScopeTracing

/// Links from a picture to the source lines it shows, through an editor's URL scheme:
/// `vscode://file/{path}:{line}`, `idea://open?file={path}&line={line}`.
public struct SourceLinks {
    private let template: String
    private let resolve: (String) -> String?

    /// Links made from `template`, where `{path}` becomes the file's absolute path (what
    /// `resolve` finds for a site's `Module/File.swift`, else the site's file as the trace has
    /// it), percent-encoded, and `{line}` the line.
    public init(template: String, resolve: @escaping (String) -> String?) {
        self.template = template
        self.resolve = resolve
    }

    /// The link to `site`.
    public func url(for site: TraceSite) -> String {
        let path = resolve(site.file) ?? site.file
        let encoded = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
        return template.replacingOccurrences(of: "{path}", with: encoded)
            .replacingOccurrences(of: "{line}", with: String(site.line))
    }
}
