import Foundation

/// Reading a trace from a log: a file, a pipe or FIFO, an open descriptor or bytes in
/// memory, through ``LogInput``, each record folded in as it is read.
extension Trace {
    /// Reads a trace from an event log file, with `pread` through a window of its own, never
    /// mapped: a mapped file that another process truncates while it is read faults
    /// (SIGBUS), and a log is often read while the program that writes it still runs. With
    /// ``Detail/liveEntities`` the model grows with what is alive, not with the log.
    /// `progress` hears the fraction of the file read so far (0 to 1), at most once per
    /// percent, for tools that show a progress bar.
    ///
    /// The file may be a pipe or a FIFO (`<(zcat trace.sslog.gz)`): it is read to its end
    /// first (at most 4 GiB). Opening one never waits for a writer: a FIFO
    /// no program writes into is refused at once.
    public init(
        contentsOf url: URL, detail: Detail = .everything, progress: (Double) -> Void = { _ in }
    ) throws(TraceReadError) {
        let descriptor = try LogInput.open(url.path)
        defer { close(descriptor) }
        try self.init(descriptor: descriptor, path: url.path, detail: detail, progress: progress)
    }

    /// Reads a trace from an open file descriptor: a regular file, or a pipe, FIFO or
    /// terminal read to its end first (standard input, say). `path` names it in messages.
    public init(
        descriptor: Int32, path: String, detail: Detail = .everything, progress: (Double) -> Void = { _ in }
    ) throws(TraceReadError) {
        self = try LogInput.withSource(descriptor: descriptor, path: path) { source throws(TraceReadError) in
            try Trace(source: source, path: path, detail: detail, progress: progress)
        }
    }

    /// Reads the event log at `url` and hands each record to `body` in sequence order,
    /// keeping none of them: for exports that stream, whatever the log's size.
    /// - Returns: Problems met while reading (a truncated or damaged tail).
    public static func forEachRecord(
        contentsOf url: URL, progress: (Double) -> Void = { _ in }, _ body: (TraceRecord) -> Void
    ) throws(TraceReadError) -> [String] {
        let descriptor = try LogInput.open(url.path)
        defer { close(descriptor) }
        return try forEachRecord(descriptor: descriptor, path: url.path, progress: progress, body)
    }

    /// ``forEachRecord(contentsOf:progress:_:)`` for an open file descriptor.
    public static func forEachRecord(
        descriptor: Int32, path: String, progress: (Double) -> Void = { _ in }, _ body: (TraceRecord) -> Void
    ) throws(TraceReadError) -> [String] {
        try LogInput.withSource(descriptor: descriptor, path: path) { source throws(TraceReadError) in
            try EventLogReader.visit(source, path: path, progress: progress, body).warnings
        }
    }

    /// Reads a trace from bytes in memory (an in-memory recording, a fuzzer's input);
    /// `path` names it in messages.
    package init(data: Data, path: String, detail: Detail) throws(TraceReadError) {
        var result: Result<Trace, TraceReadError>!
        data.withUnsafeBytes { bytes in
            result = Result { () throws(TraceReadError) in try Trace(source: .memory(bytes), path: path, detail: detail) }
        }
        self = try result.get()
    }

    private init(source: LogSource, path: String, detail: Detail, progress: (Double) -> Void = { _ in }) throws(TraceReadError) {
        var trace = Trace(growing: detail)
        let read = try EventLogReader.visit(source, path: path, progress: progress) { record in trace.add(record) }
        trace.finish()
        self = trace
        warnings = read.warnings
        skippedRecords = read.skippedRecords
        if !hasEnd {
            self.warnings.append("\(path) has no end record: the recording was cut off (the process was killed or crashed, or the disk filled), so what happened after its last record is missing")
        }
    }
}
