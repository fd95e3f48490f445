import Foundation
import SignalScopeTools
import Synchronization
import Testing

/// A log read while its program writes it, as batches (`LiveLogReader.batches`): what the
/// live command follows each traced process's log with.
@Suite("Following a growing log", .timeLimit(.minutes(10)))
struct LiveLogReaderTests {
    /// A log of a few hundred records, and how many records reading it whole gives.
    static func log() throws -> (bytes: [UInt8], records: Int) {
        let log = Tracer.recordKeepingLog {
            let subject = Subject<Int>()
            let subscription = subject.map { $0 * 2 }.subscribe(next: { _ in })
            for value in 0..<100 { subject.sendNext(value) }
            subscription.dispose()
        }.log
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("whole-\(UUID().uuidString).sslog")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(log).write(to: url)
        var count = 0
        _ = try Trace.forEachRecord(contentsOf: url) { _ in count += 1 }
        return (log, count)
    }

    @Test("Batches bring every record of a log written in two parts once, and end once the program has ended and the log is read")
    func followsToTheEnd() async throws {
        let (bytes, total) = try Self.log()
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("growing-\(UUID().uuidString).sslog")
        defer { try? FileManager.default.removeItem(at: url) }
        let cut = bytes.count / 2
        try Data(bytes[..<cut]).write(to: url)
        let finished = Atomic(false)
        let reader = LiveLogReader(path: url.path)
        var sequences: [UInt64] = []
        var wroteTheRest = false
        for await batch in reader.batches(idle: .milliseconds(10), isFinished: { finished.load(ordering: .sequentiallyConsistent) }) {
            sequences += batch.map(\.sequence)
            if !wroteTheRest {
                // The program writes the rest of its log, then ends.
                wroteTheRest = true
                let handle = try FileHandle(forWritingTo: url)
                try handle.seekToEnd()
                try handle.write(contentsOf: Data(bytes[cut...]))
                try handle.close()
                finished.store(true, ordering: .sequentiallyConsistent)
            }
        }
        #expect(sequences.count == total, "every record once")
        #expect(Set(sequences).count == sequences.count)
        #expect(reader.problem == nil)
    }

    @Test("Batches of a log nobody writes yet end when their task is cancelled")
    func endsOnCancellation() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("never-\(UUID().uuidString).sslog").path
        let following = Task {
            var batches = 0
            for await _ in LiveLogReader(path: path).batches(idle: .milliseconds(10), isFinished: { false }) { batches += 1 }
            return batches
        }
        try await Task.sleep(for: .milliseconds(100))
        following.cancel()
        let batches = await following.value
        #expect(batches > 0, "an empty batch for each poll that found nothing")
    }
}
