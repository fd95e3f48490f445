import Foundation
import SignalScopeTools

/// The one function whose instructions the instruction-count mode counts: every throughput
/// workload runs inside it, and callgrind collects from its entry to its return
/// (`--toggle-collect`), so start-up, set-up and reading the trace back are left out. Its
/// symbol is fixed so that the valgrind command line can name it.
@_silgen_name("signalscope_bench_measured_region")
@inline(never)
func measuredRegion(_ body: () -> Int) -> Int {
    body()
}

/// Runs one scenario and variant of this binary under callgrind and reads back how many
/// instructions the measured region executed.
///
/// valgrind 3.19 cannot read the DWARF that Swift 6.3 emits, so callgrind runs a copy of
/// this binary with its debug information stripped (`objcopy --strip-debug`); the symbol
/// table, all `--toggle-collect` needs, stays.
struct InstructionCounter {
    let strippedBinary: String
    let scale: Double
    let folder: URL

    /// Makes the stripped copy of `binary` (a build of this benchmark) in `folder`.
    init(binary: String, label: String, scale: Double, folder: URL) throws {
        self.scale = scale
        self.folder = folder
        strippedBinary = folder.appendingPathComponent("signalscope-bench-\(label)-stripped").path
        try Self.execute("objcopy", ["--strip-debug", binary, strippedBinary])
    }

    /// The instructions one operation of `scenario` costs in `variant`, and the events each
    /// operation recorded when the variant traces.
    func measure(_ scenario: ThroughputScenario, _ variant: Variant) throws -> (instructions: Double, eventsPerOp: Double?) {
        let profile = folder.appendingPathComponent("callgrind-\(UUID().uuidString).out").path
        let scale = max(scale, Double(scenario.countedAtLeast) / Double(scenario.operations))
        let output = try Self.execute("valgrind", [
            "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=signalscope_bench_measured_region",
            "--callgrind-out-file=\(profile)", strippedBinary, "run", "--json", "--repetitions", "1", "--warmups", "0",
            "--scale", String(scale), "--only", scenario.id, "--variant", variant.rawValue,
        ])
        let document = try JSONDecoder().decode(ChildDocument.self, from: output)
        let instructions = try Self.totalInstructions(in: profile)
        let operations = scenario.scaled(by: scale).operations
        return (Double(instructions) / Double(operations), document.results.first?.eventsPerOp)
    }

    /// What one `next` record takes in an event log: the mean size of the `next` records of
    /// a recording that sends 10,000 values without summaries, and the same with the headers
    /// of the batches they were written in (32 bytes a drain of a thread's buffer, shared by
    /// every record in it, docs/event-log.md). Read from the log itself: comparing the sizes
    /// of two logs also counts what their closing snapshots happen to differ by.
    static func bytesPerNextRecord() throws -> (record: Double, withBatches: Double) {
        let file = TraceFile(label: "next-record")
        defer { file.remove() }
        try file.start(values: false)
        let subject = Subject<Int>()
        let disposable = subject.subscribeNext { _ in }
        for value in 0..<10_000 { subject.sendNext(value) }
        subject.sendCompleted()
        disposable.dispose()
        try file.stop()
        let sizes = LogLayout(try Data(contentsOf: file.url))
        let records = Double(sizes.nextRecords)
        return (Double(sizes.nextBytes) / records, Double(sizes.nextBytes + sizes.batchHeaderShare) / records)
    }

    /// The `next` records of a log, walked as docs/event-log.md lays it out: a 16-byte
    /// header, then records that start with their size (u32) and kind (u8); a batch (kind 25)
    /// holds records after its 32-byte prefix, each either compact (first byte 1, 16 bytes,
    /// kind in its second byte) or whole.
    private struct LogLayout {
        private(set) var nextRecords = 0
        private(set) var nextBytes = 0
        /// The batch headers' bytes, shared out by the records each batch holds.
        private(set) var batchHeaderShare = 0

        init(_ log: Data) {
            let bytes = [UInt8](log)
            func size(at offset: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) } }
            var offset = 16
            while offset + 8 <= bytes.count, size(at: offset) >= 8 {
                let end = offset + size(at: offset)
                guard bytes[offset + 4] == 25 else {
                    offset = end
                    continue
                }
                var nested = offset + 32, records = 0, nexts = 0
                while nested < min(end, bytes.count) {
                    let isCompact = bytes[nested] == 1
                    let length = isCompact ? 16 : size(at: nested)
                    guard length >= 8 else { break }
                    if bytes[nested + (isCompact ? 1 : 4)] == 8 {
                        nexts += 1
                        nextBytes += length
                    }
                    records += 1
                    nested += length
                }
                nextRecords += nexts
                if records > 0 { batchHeaderShare += 32 * nexts / records }
                offset = end
            }
        }
    }

    private struct ChildDocument: Decodable {
        struct Row: Decodable {
            let eventsPerOp: Double?
            enum CodingKeys: String, CodingKey { case eventsPerOp = "events_per_op" }
        }
        let results: [Row]
    }

    /// The `summary:` (or `totals:`) line of a callgrind profile: instructions executed.
    private static func totalInstructions(in profile: String) throws -> Int {
        let text = try String(contentsOfFile: profile, encoding: .utf8)
        for line in text.split(separator: "\n").reversed() where line.hasPrefix("summary:") || line.hasPrefix("totals:") {
            if let count = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) { return count }
        }
        throw BenchmarkError.childFailed("\(profile) has no instruction total")
    }

    /// Runs a tool found on `PATH` and returns its standard output; its standard error goes
    /// to a file beside the profiles, named in the error when it fails.
    @discardableResult
    private static func execute(_ tool: String, _ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            throw BenchmarkError.childFailed("cannot run \(tool): \(error.localizedDescription)")
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let lastLine = errorText.split(separator: "\n").last.map(String.init) ?? ""
            throw BenchmarkError.childFailed("\(tool) exited with status \(process.terminationStatus): \(lastLine)")
        }
        return data
    }
}
