import Foundation
import Glibc
import SignalScopeTracing

/// A format a trace exports to, written record by record, so that an export streams: the
/// records go through once (twice for an exporter that ``readsTwice``), in sequence order,
/// and what the exporter keeps grows with the nodes and subscriptions alive (and, for one
/// that reads twice, by about a byte a record: ``CauseFlows``), never with the events'
/// contents. An exporter that ``readsTwice`` must be handed every record with
/// ``prepare(_:)`` before ``begin(into:)``, as the `export` functions do; without it, it
/// draws no arrows.
public protocol TraceExporter {
    /// What the export is written into: JSON text, or protobuf bytes.
    associatedtype Output: ExportOutput = JSONBuffer
    /// Whether the exporter reads the records once before writing them (``prepare(_:)``):
    /// to know, when it writes an event, the arrows that will leave it.
    var readsTwice: Bool { get }
    /// The first pass over the records, when ``readsTwice``.
    mutating func prepare(_ record: TraceRecord)
    /// Writes what comes before the first record.
    mutating func begin(into output: inout Output)
    /// Writes what `record` adds.
    mutating func add(_ record: TraceRecord, into output: inout Output)
    /// Writes what comes after the last record.
    mutating func finish(into output: inout Output)
}

/// Bytes an export builds piece by piece, which its owner writes out as they grow.
public protocol ExportOutput {
    /// An empty output.
    init()
    /// What was written since the output was last emptied.
    var bytes: [UInt8] { get }
    /// Empties it, keeping its storage, once its owner wrote the bytes out.
    mutating func removeAll()
}

extension JSONBuffer: ExportOutput {}

extension TraceExporter {
    public var readsTwice: Bool { false }
    public mutating func prepare(_ record: TraceRecord) {}

    /// The export of a trace read into memory (with `.everything`), whole.
    public mutating func export(_ trace: Trace) -> Data {
        if readsTwice { for record in trace.records { prepare(record) } }
        var output = Output()
        begin(into: &output)
        for record in trace.records { add(record, into: &output) }
        finish(into: &output)
        return Data(output.bytes)
    }

    /// Exports the event log at `url` record by record as it is read, handing the output to
    /// `write` in pieces of about 1 MiB; `progress` hears the fraction read (of each pass).
    /// - Returns: The reader's warnings (a damaged tail).
    public mutating func export(
        contentsOf url: URL, progress: (Double) -> Void = { _ in }, write: ([UInt8]) throws -> Void
    ) throws -> [String] {
        // Opened once, and made readable at any offset: a pipe or a FIFO is read to its end
        // first, so that an exporter that reads twice reads the same records twice.
        let opened = try LogInput.open(url.path)
        defer { close(opened) }
        let readable = try LogInput.seekable(opened, path: url.path)
        defer { if readable != opened { close(readable) } }
        return try export(
            records: { body throws(TraceReadError) in try Trace.forEachRecord(descriptor: readable, path: url.path, progress: progress, body) },
            write: write)
    }

    /// Exports the records `records` hands to the function it is given, in sequence order,
    /// as they come (``Trace/forEachRecord(descriptor:path:progress:_:)`` is one such source),
    /// handing the output to `write` in pieces of about 1 MiB. An exporter that
    /// ``readsTwice`` calls `records` twice: each call must hand over the same records (a
    /// descriptor of a pipe cannot; ``LogInput`` makes one readable at any offset).
    /// - Returns: What `records` returns: the reader's warnings.
    public mutating func export(
        records: ((TraceRecord) -> Void) throws(TraceReadError) -> [String], write: ([UInt8]) throws -> Void
    ) throws -> [String] {
        if readsTwice { _ = try records { prepare($0) } }
        var output = Output()
        var failure: (any Error)?
        begin(into: &output)
        // `records` calls its function only while it runs.
        let warnings = try withoutActuallyEscaping(write) { write in
            try records { record in
                guard failure == nil else { return }
                add(record, into: &output)
                if output.bytes.count >= 1 << 20 {
                    do { try write(output.bytes) } catch { failure = error }
                    output.removeAll()
                }
            }
        }
        if let failure { throw failure }
        finish(into: &output)
        try write(output.bytes)
        return warnings
    }
}
