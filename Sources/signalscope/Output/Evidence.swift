import Foundation
import SignalScopeRendering

/// What a failing `check --artifacts DIR` leaves for whoever opens the CI run after the
/// runner is gone: the traces it judged and the report page, under a name from the trace or
/// the command (`swift-test.html`, `swift-test.sslog`), never replacing an earlier run's
/// (`swift-test-2.html`). Nothing is written when the check passes.
struct Evidence {
    let folder: String
    /// The files' name, without extension (``ArtifactName/safe(_:)``).
    let name: String

    /// Evidence kept in `folder`, named after the trace argument or, for a wrapped
    /// command, its words.
    init(folder: String, trace: String?, command: [String]) {
        self.folder = folder
        let words = trace.map { [(($0 as NSString).lastPathComponent as NSString).deletingPathExtension] }
            ?? command.prefix(4).enumerated().map { $0.offset == 0 ? ($0.element as NSString).lastPathComponent : $0.element }
        name = ArtifactName.safe(words.joined(separator: "-"))
    }

    /// Writes the report `page` and copies each of `traces`; returns the paths written, the
    /// page first.
    func keep(page: String, traces: [TraceInput]) throws -> [String] {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw CLIError("cannot create the artifacts folder \(folder): \(reason(error))")
        }
        let stem = ArtifactName.free(name, in: folder)
        let pagePath = "\(folder)/\(stem).html"
        try writeOutput(Data(page.utf8), to: pagePath, force: false)
        var written = [pagePath]
        for (index, trace) in traces.enumerated() {
            let path = "\(folder)/\(stem)\(traces.count > 1 ? "-trace\(index + 1)" : "").sslog"
            let output = try StreamedOutput(path, force: false)
            try trace.copy(into: output)
            try output.commit()
            written.append(path)
        }
        return written
    }

}

extension TraceInput {
    /// Writes the trace's bytes into `output`, as read: for evidence a user opens later.
    func copy(into output: StreamedOutput) throws {
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var offset: off_t = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw CLIError("cannot read \(name): \(String(cString: strerror(errno)))") }
            if count == 0 { return }
            try output.write(buffer[..<count])
            offset += off_t(count)
        }
    }
}
