import Foundation
import SignalScope

/// Options every command that reads a trace shares.
enum TraceLoading {
    /// Reads the trace at `path`, reporting a truncated tail as a warning on standard error
    /// (the records before it are still used) and a one-line status on a terminal while it works.
    static func load(_ path: String) throws -> Trace {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CLIError("no such trace: \(path)")
        }
        guard !isDirectory.boolValue else { throw CLIError("\(path) is a directory, not a trace") }
        // Small traces read in a blink; a bar for them would only flicker.
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        let status = TerminalStatus(enabled: size > 8 << 20)
        defer { status.clear() }
        let trace: Trace
        do {
            trace = try Trace(contentsOf: URL(fileURLWithPath: path)) { fraction in
                status.showProgress("reading \(path)", fraction: fraction)
            }
        } catch {
            throw CLIError(error.description)
        }
        for warning in trace.warnings { standardError("signalscope: warning: \(warning)") }
        return trace
    }
}

/// A single progress line on standard error, drawn only when it is a terminal, so that
/// logs and pipes never receive it.
struct TerminalStatus {
    private let enabled: Bool

    init(enabled: Bool = true) {
        self.enabled = enabled && isatty(STDERR_FILENO) == 1
    }

    /// `label [#########           ]  45%`, redrawn in place.
    func showProgress(_ label: String, fraction: Double) {
        guard enabled else { return }
        let width = 30
        let filled = Int((min(max(fraction, 0), 1) * Double(width)).rounded())
        let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
        let percent = Int((fraction * 100).rounded())
        FileHandle.standardError.write(Data("\r\u{1B}[2K\(label) [\(bar)] \(percent)%".utf8))
    }

    func clear() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }
}

/// Writes `data` to `path` (`-` is standard output), creating its folder, with a one-line
/// error naming the path.
///
/// A new or regular file is replaced atomically, so that a failed run never leaves half a
/// report. Anything else (a symlink, `/dev/stdout`, a pipe) is written in place: replacing
/// it would swap the link or device for a plain file.
func writeOutput(_ data: Data, to path: String) throws {
    if path == "-" {
        FileHandle.standardOutput.write(data)
        return
    }
    let url = URL(fileURLWithPath: path)
    let manager = FileManager.default
    do {
        if let type = try? manager.attributesOfItem(atPath: path)[.type] as? FileAttributeType, type != .typeRegular {
            guard let handle = FileHandle(forWritingAtPath: path) else {
                throw CLIError("cannot write \(path): permission denied or not writable")
            }
            defer { try? handle.close() }
            let target = try? manager.attributesOfItem(atPath: url.resolvingSymlinksInPath().path)[.type] as? FileAttributeType
            if target == .typeRegular { try handle.truncate(atOffset: 0) }
            try handle.write(contentsOf: data)
        } else {
            try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url, options: .atomic)
        }
    } catch let error as CLIError {
        throw error
    } catch {
        throw CLIError("cannot write \(path): \(reason(error))")
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
