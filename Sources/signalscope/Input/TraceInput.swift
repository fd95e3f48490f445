import Foundation
import SignalScopeTools

/// A trace the user named on the command line, opened: by the bytes they typed (a file name
/// need not be UTF-8, and `CommandLine.arguments` replaces what is not, which would name
/// another file), `-` for standard input. A pipe, a FIFO or a terminal (`<(zcat t.sslog.gz)`,
/// `… | signalscope check -`) is read to its end once into an anonymous file in memory, so
/// that a command may read it twice as it reads a file; opening never waits for a writer.
final class TraceInput {
    /// How the trace is named in messages.
    let name: String
    /// Where its bytes are read, from offset 0: the file itself, or the copy of a stream.
    let descriptor: Int32
    /// Its size in bytes.
    let size: Int

    /// Opens the trace `argument` names; a one-line error when there is none, it is a
    /// folder, or it cannot be read.
    init(_ argument: String) throws {
        name = argument
        let opened: Int32
        if argument == "-" {
            opened = dup(STDIN_FILENO)
        } else {
            opened = RawArgument.bytes(argument).withUnsafeBufferPointer { Glibc.open($0.baseAddress!, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        }
        guard opened >= 0 else {
            throw CLIError(errno == ENOENT ? "no such trace: \(argument)" : "cannot read \(argument): \(String(cString: strerror(errno)))")
        }
        RunInputs.note(argument, descriptor: opened)
        var status = stat()
        if fstat(opened, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            close(opened)
            throw CLIError("\(argument) is a directory, not a trace")
        }
        do throws(TraceReadError) {
            descriptor = try LogInput.seekable(opened, path: argument)
        } catch {
            close(opened)
            throw CLIError(error.description)
        }
        if descriptor != opened { close(opened) }
        fstat(descriptor, &status)
        size = Int(status.st_size)
    }

    deinit {
        close(descriptor)
    }

    /// Reads the trace, keeping `detail` of it.
    func read(detail: Trace.Detail, progress: (Double) -> Void) throws(TraceReadError) -> Trace {
        try Trace(descriptor: descriptor, path: name, detail: detail, progress: progress)
    }

    /// Hands each record to `body` as it is read.
    func forEachRecord(progress: (Double) -> Void, _ body: (TraceRecord) -> Void) throws(TraceReadError) -> [String] {
        try Trace.forEachRecord(descriptor: descriptor, path: name, progress: progress, body)
    }
}

/// The bytes of a command-line argument as the user typed them.
enum RawArgument {
    /// The bytes of the argument that `CommandLine.arguments` reads as `argument` (it
    /// replaces bytes that are not UTF-8), or of the value after the first `=` of one
    /// (`--format json=<path>`), nul-terminated; `argument`'s own bytes when none does (an
    /// argument that did not come from the command line).
    static func bytes(_ argument: String) -> [CChar] {
        for index in 0..<Int(CommandLine.argc) {
            guard let raw = CommandLine.unsafeArgv[index] else { continue }
            let bytes = UnsafeBufferPointer(start: raw, count: strlen(raw) + 1)
            let equals = bytes.firstIndex(of: CChar(UInt8(ascii: "=")))
            for start in [0, equals.map { $0 + 1 }].compactMap({ $0 }) {
                let value = Array(bytes[start...])
                if String(decoding: value.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self) == argument { return value }
            }
        }
        return Array(argument.utf8CString)
    }
}
