import Foundation
import SignalScopeTracing

/// A format a trace exports to, written record by record, so that an export streams: the
/// records go through once, in sequence order, and what the exporter keeps grows with the
/// nodes and subscriptions alive, not with the events.
public protocol TraceExporter {
    /// Writes what comes before the first record.
    mutating func begin(into output: inout JSONBuffer)
    /// Writes what `record` adds.
    mutating func add(_ record: TraceRecord, into output: inout JSONBuffer)
    /// Writes what comes after the last record.
    mutating func finish(into output: inout JSONBuffer)
}

extension TraceExporter {
    /// The export of a trace read into memory (with `.everything`), whole.
    public mutating func export(_ trace: Trace) -> Data {
        var output = JSONBuffer()
        begin(into: &output)
        for record in trace.records { add(record, into: &output) }
        finish(into: &output)
        return Data(output.bytes)
    }

    /// Exports the event log at `url` record by record as it is read, handing the text to
    /// `write` in pieces of about 1 MiB; `progress` hears the fraction read.
    /// - Returns: The reader's warnings (a damaged tail).
    public mutating func export(
        contentsOf url: URL, progress: (Double) -> Void = { _ in }, write: ([UInt8]) throws -> Void
    ) throws -> [String] {
        try export(records: { body throws(TraceReadError) in try Trace.forEachRecord(contentsOf: url, progress: progress, body) },
                   write: write)
    }

    /// Exports the records `records` hands to the function it is given, in sequence order,
    /// as they come (``Trace/forEachRecord(descriptor:path:progress:_:)`` is one such source),
    /// handing the text to `write` in pieces of about 1 MiB.
    /// - Returns: What `records` returns: the reader's warnings.
    public mutating func export(
        records: ((TraceRecord) -> Void) throws(TraceReadError) -> [String], write: ([UInt8]) throws -> Void
    ) throws -> [String] {
        var output = JSONBuffer()
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
