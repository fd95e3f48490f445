import Foundation
import SignalScopeTools

/// A recording to a temporary event log file, removed when the measurement is done with it.
struct TraceFile {
    let url: URL

    init(label: String) {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("signalscope-bench-\(label)-\(getpid())-\(UUID().uuidString.prefix(8)).sslog")
    }

    func start(values: Bool) throws {
        try Tracer.startRecording(to: url, values: values)
    }

    func stop() throws {
        try Tracer.stopRecording()
    }

    /// How many events the log holds, read the way the analyzers read it.
    func eventCount() throws -> Int {
        try Trace(contentsOf: url, detail: .liveEntities).eventCount
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
