import Foundation
import SignalScopeTools

/// Writes `data` to `path` (`-` is standard output), creating its folder, with a one-line
/// error naming the path: ``StreamedOutput`` with everything at once.
func writeOutput(_ data: Data, to path: String) throws {
    let output = try StreamedOutput(path)
    try output.write(data)
    try output.commit()
}

/// An output written in pieces, creating its folder, with a one-line error naming the path.
///
/// A new or regular file is written to a temporary file beside it and moved into place by
/// ``commit()``, so that a failed run never leaves half a report. Anything else (a symlink,
/// `/dev/stdout`, a pipe) is written in place, as `-` is standard output: replacing it would
/// swap the link or device for a plain file. What a symlink points to is emptied first when
/// it is a regular file, so no old tail survives a shorter output.
final class StreamedOutput {
    private let path: String
    private let handle: FileHandle
    private let temporary: URL?

    init(_ path: String) throws {
        self.path = path
        if path == "-" {
            handle = .standardOutput
            temporary = nil
            return
        }
        let manager = FileManager.default
        let url = URL(fileURLWithPath: path)
        if let type = try? manager.attributesOfItem(atPath: path)[.type] as? FileAttributeType, type != .typeRegular {
            guard let handle = FileHandle(forWritingAtPath: path) else {
                throw CLIError("cannot write \(path): permission denied or not writable")
            }
            let target = try? manager.attributesOfItem(atPath: url.resolvingSymlinksInPath().path)[.type] as? FileAttributeType
            if target == .typeRegular {
                do { try handle.truncate(atOffset: 0) } catch { throw CLIError("cannot write \(path): \(reason(error))") }
            }
            self.handle = handle
            temporary = nil
            return
        }
        do {
            try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw CLIError("cannot write \(path): \(reason(error))")
        }
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).partial")
        guard manager.createFile(atPath: temporary.path, contents: nil), let handle = FileHandle(forWritingAtPath: temporary.path)
        else {
            throw CLIError("cannot write \(path): permission denied or not writable")
        }
        self.handle = handle
        self.temporary = temporary
    }

    deinit {
        if let temporary { try? FileManager.default.removeItem(at: temporary) }
    }

    func write(_ bytes: some DataProtocol) throws {
        do {
            try handle.write(contentsOf: bytes)
        } catch {
            throw CLIError("cannot write \(path): \(reason(error))")
        }
    }

    /// Makes the output complete: moves the temporary file into place.
    func commit() throws {
        guard let temporary else { return }
        do { try handle.close() } catch { throw CLIError("cannot write \(path): \(reason(error))") }
        guard rename(temporary.path, path) == 0 else {
            throw CLIError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }
}

/// Says what was written: on standard output, unless the output itself went there (`-`),
/// where a line of ours would corrupt it; then on standard error.
func announceWritten(_ path: String, _ details: String? = nil) {
    let line = "wrote \(path == "-" ? "standard output" : path)" + (details.map { " (\($0))" } ?? "")
    if path == "-" {
        standardError("signalscope: \(line)")
    } else {
        print(TerminalText.sanitized(line))
    }
}

/// The short reason of a Foundation error, without its domain and code.
func reason(_ error: any Error) -> String {
    let nsError = error as NSError
    if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
        let posix = POSIXErrorCode(rawValue: Int32(underlying.code)), underlying.domain == NSPOSIXErrorDomain
    {
        return String(cString: strerror(posix.rawValue))
    }
    return nsError.localizedDescription
}
