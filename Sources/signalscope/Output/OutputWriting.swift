import ArgumentParser
import Foundation
import SignalScope
import SignalScopeTools
import Synchronization

/// Writes `data` to `path` (`-` is standard output), creating its folder, with a one-line
/// error naming the path: ``StreamedOutput`` with everything at once.
func writeOutput(_ data: Data, to path: String, force: Bool) throws {
    let output = try StreamedOutput(path, force: force)
    try output.write(data)
    try output.commit()
}

/// `--force`, on every command that writes files: replace an output file even when it is
/// read-only.
struct ForceOption: ParsableArguments {
    @Flag(name: .customLong("force"), help: "Replace an output file even when it is read-only.")
    var isOn = false
}

/// The traces this run reads, noted as they are opened, so that outputs can respect them:
/// no output is written over one, and a new output is no more readable than they are (an
/// HTML page or JSON Lines file carries the trace's names and values).
enum RunInputs {
    private struct Input {
        let device: UInt64
        let inode: UInt64
        let name: String
    }

    private static let state = Mutex<(inputs: [Input], mode: mode_t?)>(([], nil))

    /// Notes the input `name`, opened as `descriptor`. A stream (a pipe, a terminal) has no
    /// file to protect and no mode to pass on, so what is made from it is private.
    static func note(_ name: String, descriptor: Int32) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return }
        let isFile = status.st_mode & S_IFMT == S_IFREG
        state.withLock { state in
            if isFile { state.inputs.append(Input(device: UInt64(status.st_dev), inode: UInt64(status.st_ino), name: name)) }
            let allowed = isFile ? status.st_mode & 0o666 : 0o600
            state.mode = (state.mode ?? 0o666) & allowed
        }
    }

    /// The input that is the file `status` describes, if one is.
    fileprivate static func input(matching status: stat) -> String? {
        state.withLock { state in
            state.inputs.first { $0.device == UInt64(status.st_dev) && $0.inode == UInt64(status.st_ino) }?.name
        }
    }

    /// The permission bits of a new output: what every input allows, else the usual.
    fileprivate static var newOutputMode: mode_t { state.withLock { $0.mode } ?? 0o666 }
}

/// An output written in pieces, creating its folder, with a one-line error naming the path.
///
/// A new or regular file is written to a temporary file beside it and moved into place by
/// ``commit()``, so that a failed run never leaves half a report. Anything else (a symlink,
/// `/dev/stdout`, a pipe) is written in place, as `-` is standard output: replacing it would
/// swap the link or device for a plain file. What a symlink points to is emptied first when
/// it is a regular file, so no old tail survives a shorter output.
///
/// The path is the bytes the user typed (``RawArgument``). An output that is one of the
/// run's inputs (``RunInputs``), through a link or not, is refused, as is a folder, and a
/// read-only file unless `force`. A new file gets the inputs' permission bits (a private
/// trace makes private outputs); a replaced one keeps its own mode and owner.
final class StreamedOutput {
    private let path: String
    private let handle: FileHandle
    private let name: [CChar]
    private var temporary: [CChar]?

    init(_ path: String, force: Bool) throws {
        self.path = path
        if path == "-" {
            handle = .standardOutput
            name = []
            temporary = nil
            return
        }
        let name = RawArgument.bytes(path)
        self.name = name
        var target = stat(), link = stat()
        let exists = stat(name, &target) == 0
        let isLink = lstat(name, &link) == 0 && link.st_mode & S_IFMT == S_IFLNK
        if exists {
            let type = target.st_mode & S_IFMT
            if type == S_IFDIR { throw CLIError("\(path) is a directory: name a file to write") }
            if let input = RunInputs.input(matching: target) {
                throw CLIError("cannot write \(path): it is \(input), which this command reads")
            }
            if type == S_IFREG, !force, target.st_mode & 0o222 == 0 || access(name, W_OK) != 0 {
                throw CLIError("cannot write \(path): it is read-only (--force replaces it)")
            }
        }
        if exists && (isLink || target.st_mode & S_IFMT != S_IFREG) {
            let truncate = target.st_mode & S_IFMT == S_IFREG ? O_TRUNC : 0
            let descriptor = open(name, O_WRONLY | O_CLOEXEC | truncate)
            guard descriptor >= 0 else { throw CLIError("cannot write \(path): \(String(cString: strerror(errno)))") }
            handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            temporary = nil
            return
        }
        let slash = name.lastIndex(of: CChar(UInt8(ascii: "/")))
        let folder = slash.map { Array(name[..<$0]) } ?? []
        let base = Array(name[(slash.map { $0 + 1 } ?? 0)..<(name.count - 1)])
        try Self.makeFolders(folder, for: path)
        let temporary = (folder.isEmpty ? [] : folder + [CChar(UInt8(ascii: "/"))]) + Array(".".utf8CString.dropLast())
            + base + Array(".\(getpid()).partial".utf8CString)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, exists ? 0o600 : RunInputs.newOutputMode)
        guard descriptor >= 0 else { throw CLIError("cannot write \(path): \(String(cString: strerror(errno)))") }
        if exists {
            // Replacing a file keeps what its owner chose for it.
            if geteuid() == 0 { _ = fchown(descriptor, target.st_uid, target.st_gid) }
            _ = fchmod(descriptor, target.st_mode & 0o7777)
        }
        handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        self.temporary = temporary
    }

    deinit {
        if let temporary { unlink(temporary) }
    }

    /// Creates `folder` (bytes, no terminator) and the folders above it that are missing.
    private static func makeFolders(_ folder: [CChar], for path: String) throws {
        guard !folder.isEmpty else { return }
        for end in folder.indices where end == folder.count - 1 || folder[end + 1] == CChar(UInt8(ascii: "/")) {
            guard end > 0 || folder[0] != CChar(UInt8(ascii: "/")) else { continue }
            let prefix = Array(folder[...end]) + [0]
            if mkdir(prefix, 0o777) != 0, errno != EEXIST {
                throw CLIError("cannot write \(path): \(String(cString: strerror(errno)))")
            }
        }
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
        guard rename(temporary, name) == 0 else {
            throw CLIError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        self.temporary = nil
    }
}

/// Says what was written: on standard output, unless the output itself went there (`-`),
/// where a line of ours would corrupt it; then on standard error.
func announceWritten(_ path: String, _ details: String? = nil) {
    let line = "wrote \(path == "-" ? "standard output" : path)" + (details.map { " (\($0))" } ?? "")
    if path == "-" {
        standardError("signalscope: \(line)")
    } else {
        standardOutput(TerminalText.sanitized(line), notice: true)
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
