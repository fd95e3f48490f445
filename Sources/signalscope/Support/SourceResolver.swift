import Foundation

/// Turns the `Module/File.swift` a trace stores into a path relative to the current
/// directory, so that SARIF and GitHub annotations land on the right file.
///
/// Traces store `#fileID`, which names the module and file but not the folder; the
/// resolver finds the file under the current directory (skipping hidden folders and build
/// products), preferring one whose folder is named after the module.
final class SourceResolver {
    private let root: URL
    private lazy var swiftFiles: [String: [String]] = indexSwiftFiles()
    private var cache: [String: String] = [:]

    init(root: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) {
        self.root = root.standardizedFileURL
    }

    /// The relative path of `fileID`, or `fileID` itself when no such file is found.
    func path(for fileID: String) -> String {
        if let known = cache[fileID] { return known }
        let parts = fileID.split(separator: "/").map(String.init)
        let name = parts.last ?? fileID
        let module = parts.count > 1 ? parts[parts.count - 2] : nil
        let candidates = swiftFiles[name] ?? []
        let resolved =
            candidates.first { candidate in module.map { candidate.hasSuffix("\($0)/\(name)") } ?? false }
            ?? (candidates.count == 1 ? candidates[0] : fileID)
        cache[fileID] = resolved
        return resolved
    }

    private func indexSwiftFiles() -> [String: [String]] {
        var index: [String: [String]] = [:]
        guard
            let walker = FileManager.default.enumerator(
                at: root, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
        else { return index }
        let prefix = root.path.hasSuffix("/") ? root.path : root.path + "/"
        for case let url as URL in walker {
            if url.lastPathComponent == ".build" || url.lastPathComponent.hasPrefix(".build-") {
                walker.skipDescendants()
                continue
            }
            guard url.pathExtension == "swift" else { continue }
            let path = url.standardizedFileURL.path
            let relative = path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
            index[url.lastPathComponent, default: []].append(relative)
        }
        for key in index.keys { index[key]?.sort() }
        return index
    }
}
