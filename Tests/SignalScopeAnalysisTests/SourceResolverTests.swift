import Foundation
import SignalScopeAnalysis
import Testing

/// A trace's file names are its writer's: the resolver finds files in the project it is
/// given and never anywhere else.
@Suite("Finding a trace's files in the project", .timeLimit(.minutes(10)))
final class SourceResolverTests {
    let outside: URL
    let project: URL

    init() throws {
        outside = FileManager.default.temporaryDirectory.appendingPathComponent("signalscope-sources-\(UUID().uuidString)")
        project = outside.appendingPathComponent("project")
        try FileManager.default.createDirectory(at: project.appendingPathComponent("Sources/App"), withIntermediateDirectories: true)
        for file in ["Secret.swift", "project/Sources/App/Main.swift"] {
            #expect(FileManager.default.createFile(atPath: outside.appendingPathComponent(file).path, contents: Data()))
        }
        try FileManager.default.createDirectory(at: outside.appendingPathComponent("Elsewhere"), withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: outside.appendingPathComponent("Elsewhere/Linked.swift").path, contents: Data()))
        try FileManager.default.createSymbolicLink(
            at: project.appendingPathComponent("Sources/Out"), withDestinationURL: outside.appendingPathComponent("Elsewhere"))
    }

    deinit { try? FileManager.default.removeItem(at: outside) }

    @Test("A file the project holds is found by its module and name")
    func insideIsFound() {
        let resolver = SourceResolver(root: project)
        #expect(resolver.path(for: "App/Main.swift") == "Sources/App/Main.swift")
        #expect(resolver.absolutePath(for: "App/Main.swift") == project.appendingPathComponent("Sources/App/Main.swift").path)
    }

    @Test("Parent folders, absolute paths, empty and dot parts are never followed, and a link out of the project finds nothing")
    func nothingOutside() {
        let resolver = SourceResolver(root: project)
        for fileID in ["../Secret.swift", "App/../../Secret.swift", "/etc/passwd", outside.appendingPathComponent("Secret.swift").path,
                       "//host/share/Secret.swift", "./App/Main.swift", "App//Main.swift", "..", ""] {
            #expect(resolver.absolutePath(for: fileID) == nil, "\(fileID)")
            #expect(resolver.path(for: fileID) == fileID, "\(fileID) is left as the trace has it")
        }
        #expect(resolver.absolutePath(for: "Out/Linked.swift") == nil, "a symbolic link out of the project")
    }
}
