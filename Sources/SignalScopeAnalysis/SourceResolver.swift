import Foundation

/// Turns the `Module/File.swift` a trace stores into a path relative to a package's root,
/// so that reports, annotations and test issues land on a file an editor can open.
///
/// Traces store `#fileID`, which names the module and file but not the folder. The
/// resolver first looks where a package keeps a module (`Sources/<Module>`,
/// `Tests/<Module>`, `<Module>`), which resolves a package's own files without walking the
/// folder; only then does it search the current directory, skipping hidden folders,
/// build products and dependency folders, and stopping after ``walkBudget`` entries so
/// that a check run from a huge folder (a home directory, a monorepo) stays quick. A file it
/// cannot find keeps its file ID.
///
/// A trace may come from anyone, so its paths never lead the resolver out of its root: a
/// file ID that is absolute or has an empty, `.` or `..` part is never looked for, and a
/// file found through a symbolic link that points out of the root is not found.
public final class SourceResolver {
    /// At most this many folder entries are visited in the fallback walk.
    static let walkBudget = 50_000
    private static let skippedFolders: Set<String> = [".build", "node_modules", "Pods", "Carthage", "DerivedData"]

    private let root: URL
    private lazy var swiftFiles: [String: [String]] = indexSwiftFiles(under: root)
    private var cache: [String: String] = [:]
    /// The Swift files of each module folder looked in, by file name.
    private var moduleFolders: [String: [String: [String]]] = [:]

    /// A resolver for the files under `root` (the current directory by default).
    public init(root: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) {
        self.root = root.standardizedFileURL
    }

    /// A resolver for the package that holds `filePath` (a test's `#filePath`): the nearest
    /// folder above it with a `Package.swift`, or `nil` when there is none.
    public convenience init?(packageOf filePath: String) {
        var folder = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                self.init(root: folder)
                return
            }
            folder.deleteLastPathComponent()
        }
        return nil
    }

    /// The absolute path of `fileID`, or `nil` when no such file is found.
    public func absolutePath(for fileID: String) -> String? {
        guard Self.staysInside(fileID) else { return nil }
        let candidate = root.appendingPathComponent(path(for: fileID)).path
        guard let real = realpath(candidate, nil) else { return nil }
        defer { free(real) }
        return String(cString: real).hasPrefix(realRoot) ? candidate : nil
    }

    /// The root with its links followed, ending in `/`: what a found file's real path must
    /// start with.
    private lazy var realRoot: String = {
        let real = realpath(root.path, nil).map { pointer in
            defer { free(pointer) }
            return String(cString: pointer)
        } ?? root.path
        return real.hasSuffix("/") ? real : real + "/"
    }()

    /// Whether `fileID` is a relative path whose parts are all names.
    private static func staysInside(_ fileID: String) -> Bool {
        !fileID.isEmpty && !fileID.hasPrefix("/")
            && fileID.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." }
    }

    /// The path of `fileID` relative to the root, or `fileID` itself when no such file is
    /// found.
    public func path(for fileID: String) -> String {
        if let known = cache[fileID] { return known }
        guard Self.staysInside(fileID) else { return fileID }
        let parts = fileID.split(separator: "/").map(String.init)
        let name = parts.last ?? fileID
        let module = parts.count > 1 ? parts[parts.count - 2] : nil
        let resolved = module.flatMap { inModuleFolder($0, name) } ?? bestCandidate(name, module: module) ?? fileID
        cache[fileID] = resolved
        return resolved
    }

    /// `name` under the folder a package gives `module`, if there is one such file.
    private func inModuleFolder(_ module: String, _ name: String) -> String? {
        for base in ["Sources/\(module)", "Tests/\(module)", module] {
            let folder = root.appendingPathComponent(base)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else { continue }
            if moduleFolders[base] == nil { moduleFolders[base] = indexSwiftFiles(under: folder) }
            let found = moduleFolders[base]?[name] ?? []
            if found.count == 1 { return found[0] }
        }
        return nil
    }

    /// Of the files called `name`, the one in a folder named after `module`, or the only one.
    private func bestCandidate(_ name: String, module: String?) -> String? {
        let candidates = swiftFiles[name] ?? []
        return candidates.first { candidate in module.map { candidate.hasSuffix("\($0)/\(name)") } ?? false }
            ?? (candidates.count == 1 ? candidates[0] : nil)
    }

    /// The Swift files under `folder` by file name, as paths relative to the root.
    private func indexSwiftFiles(under folder: URL) -> [String: [String]] {
        var index: [String: [String]] = [:]
        guard
            let walker = FileManager.default.enumerator(
                at: folder, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
        else { return index }
        let prefix = root.path.hasSuffix("/") ? root.path : root.path + "/"
        var visited = 0
        for case let url as URL in walker {
            visited += 1
            if visited > Self.walkBudget { break }
            let name = url.lastPathComponent
            if Self.skippedFolders.contains(name) || name.hasPrefix(".build-") {
                walker.skipDescendants()
                continue
            }
            guard url.pathExtension == "swift" else { continue }
            let path = url.standardizedFileURL.path
            let relative = path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
            index[name, default: []].append(relative)
        }
        for key in index.keys { index[key]?.sort() }
        return index
    }
}
