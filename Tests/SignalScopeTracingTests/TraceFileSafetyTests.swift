import Foundation
@testable import SignalScopeTracing
import Testing

/// A trace path often lies in a shared folder, and a trace may hold values and error
/// messages: the recorder creates it for its owner only, never follows a link, and never
/// empties a file that is not already one of this user's traces.
@Suite("Trace files are created safely", .timeLimit(.minutes(10)))
final class TraceFileSafetyTests {
    private let folder = FileManager.default.temporaryDirectory.appendingPathComponent("signalscope-files-\(UUID())")

    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    private func permissions(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    private func refusal(_ path: String) -> String? {
        do {
            let sink = try FileSink(path: path)
            try sink.close()
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test("A new trace is readable and writable by its owner only, whatever the umask")
    func ownerOnly() throws {
        let previous = umask(0)
        defer { umask(previous) }
        #expect(refusal(path("new.sslog")) == nil)
        #expect(try permissions(path("new.sslog")) == 0o600)
    }

    @Test("A symbolic link at the trace path is refused, and what it points to is untouched")
    func symbolicLink() throws {
        let target = path("precious.txt")
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(atPath: path("trace.sslog"), withDestinationPath: target)
        #expect(refusal(path("trace.sslog")) == "cannot create trace file \(path("trace.sslog")): it is a symbolic link, which a trace never follows")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep me")
    }

    @Test("A file that is not a trace is not overwritten; an earlier trace of the same user is, and made private")
    func overwriteRule() throws {
        let source = path("Screen.swift")
        try Data("final class Screen {}".utf8).write(to: URL(fileURLWithPath: source))
        #expect(refusal(source) == "cannot create trace file \(source): it exists and is not a SignalScope trace, so it is not overwritten")
        #expect(try String(contentsOfFile: source, encoding: .utf8) == "final class Screen {}")

        let earlier = path("earlier.sslog")
        try Data(EventLogFormat.header() + [UInt8](repeating: 7, count: 64)).write(to: URL(fileURLWithPath: earlier))
        chmod(earlier, 0o644)
        #expect(refusal(earlier) == nil)
        #expect(try FileManager.default.attributesOfItem(atPath: earlier)[.size] as? Int == 0)
        #expect(try permissions(earlier) == 0o600)

        let empty = path("empty.sslog")
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        #expect(refusal(empty) == nil)
    }

    @Test("A trace with another hard link is not emptied: the link may be someone else's file")
    func hardLink() throws {
        let original = path("original.sslog")
        try Data(EventLogFormat.header()).write(to: URL(fileURLWithPath: original))
        try FileManager.default.linkItem(atPath: original, toPath: path("linked.sslog"))
        #expect(refusal(path("linked.sslog"))?.hasSuffix("it has other hard links, so it is not replaced") == true)
        #expect(try FileManager.default.attributesOfItem(atPath: original)[.size] as? Int == EventLogFormat.headerSize)
    }

    @Test("A source path under no project is recorded by its file name alone, never the machine's folders")
    func pathsOutsideAnyProject() throws {
        let project = folder.appendingPathComponent("App")
        try FileManager.default.createDirectory(at: project.appendingPathComponent("Sources/App"), withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: project.appendingPathComponent("Package.swift").path, contents: Data()))
        #expect(ProjectPaths.relative(project.appendingPathComponent("Sources/App/Main.swift").path) == "Sources/App/Main.swift")
        let loose = folder.appendingPathComponent("loose/Deep/Helper.swift").path
        #expect(ProjectPaths.relative(loose) == "Helper.swift")
    }
}
