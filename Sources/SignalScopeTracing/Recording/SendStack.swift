import Foundation
import Runtime
@_spi(Locking) import SignalScope
import Synchronization
import SignalScopeHeap

/// Where user code sent an event that broke the grammar: the call stack of the send,
/// symbolicated by the toolchain's `Runtime` module (file, line, function), without
/// SignalScope's own frames or frames that have no written source (the system's, the
/// standard library's, macro expansions), paths relative to the project; the innermost
/// frame is the site.
///
/// Capturing and symbolicating costs milliseconds, which only a violation, rare and exactly
/// what the user needs located, is worth.
struct SendStack {
    /// The innermost user frame: the line that sent the event.
    let site: TraceSite?
    /// Up to `limit` user frames, innermost first, one `function (path:line)` each.
    let frames: [String]

    static let limit = 8

    /// The stack of the calling thread, now. A stack already met (the same addresses) is not
    /// symbolicated again: symbolication parses debug information, which takes a second or
    /// more in a large binary, and a publisher that breaks the grammar from one line usually
    /// does so again and again.
    static func capture() -> SendStack {
        guard let backtrace = try? Backtrace.capture(limit: 128, images: LoadedImages.capture()) else {
            return SendStack(site: nil, frames: [])
        }
        let addresses = backtrace.frames.map { frame -> UInt in
            switch frame {
            case .returnAddress(let address), .programCounter(let address): UInt(address) ?? 0
            default: 0
            }
        }
        if let known = known.withLock({ $0[addresses] }) { return known }
        let stack = symbolicate(backtrace)
        known.withLock { cache in
            // Distinct stacks are few in a program; a bound keeps a pathological one flat.
            if cache.count >= knownLimit { cache.removeAll() }
            cache[addresses] = stack
        }
        return stack
    }

    private static let known = LockedValue<[[UInt]: SendStack]>([:])
    private static let knownLimit = 1024

    private static func symbolicate(_ backtrace: Backtrace) -> SendStack {
        var site: TraceSite?
        var frames: [String] = []
        for frame in PlacedFrame.frames(of: backtrace).joined() where frames.count < limit {
            guard let (frameSite, path) = frame.user, let symbol = frame.symbol else { continue }
            if site == nil { site = frameSite }
            frames.append("\(symbol.name) (\(path):\(frameSite.line))")
        }
        return SendStack(site: site, frames: frames)
    }

}

/// Where symbolicated code is, as traces name sites: `#fileID`s (`Module/File.swift`), so
/// that reports resolve them and baselines match them as they do every other site.
enum SourceSites {
    /// The site of a symbol's code at `line` of `fullPath`, if somebody wrote that file (not
    /// `<compiler-generated>`, nor a macro expansion the compiler wrote out), and its path
    /// relative to the project.
    static func site(of symbol: SymbolicatedBacktrace.Symbol, path fullPath: String, line: Int) -> (site: TraceSite, path: String)? {
        guard line > 0, isWritten(fullPath) else { return nil }
        let path = ProjectPaths.relative(fullPath)
        let file = module(ofMangled: symbol.rawName).map { "\($0)/\((path as NSString).lastPathComponent)" } ?? path
        return (TraceSite(file: file, line: line, function: symbol.name), path)
    }

    /// Whether a Swift symbol is a reactive library's, which the user did not write:
    /// SignalScope's own modules, and every module declared a reactive runtime
    /// (`HeapModules`), an adapted library's.
    static func isLibrary(_ mangledName: String) -> Bool {
        libraryPrefixes.contains { mangledName.hasPrefix($0) }
            || module(ofMangled: mangledName).map { HeapModules.role(of: $0) == .reactiveRuntime } == true
    }

    /// The mangled-name prefixes of SignalScope's own modules: `$s` and the module's name,
    /// prefixed by its length. Read from the types themselves, so renaming a module cannot
    /// leave this stale.
    private static let libraryPrefixes: [String] = [
        String(reflecting: Subscriber<Int>.self), String(reflecting: Recorder.self),
    ].map { qualified in
        let module = qualified.prefix { $0 != "." }
        return "$s\(module.utf8.count)\(module)"
    }

    /// Whether a path is a file somebody wrote: not `<compiler-generated>`, nor a macro
    /// expansion the compiler wrote out.
    static func isWritten(_ path: String) -> Bool {
        let name = (path as NSString).lastPathComponent
        return !name.hasPrefix("<") && !name.hasPrefix("@__swiftmacro_")
    }

    /// The module a Swift symbol belongs to: `$s`, then the module's name prefixed by its
    /// length (`$s10MyAppTests...` is in `MyAppTests`).
    private static func module(ofMangled name: String) -> String? {
        guard name.hasPrefix("$s") else { return nil }
        let rest = name.dropFirst(2)
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard let length = Int(digits), length > 0 else { return nil }
        let module = rest.dropFirst(digits.count).prefix(length)
        return module.count == length ? String(module) : nil
    }
}

/// Makes source paths relative to the project that holds them: the nearest folder above
/// the file with a `Package.swift` or a `.git`, else the current directory. A path under
/// neither is cut to its file name: reports are shared (CI artifacts, code scanning) and
/// must not carry the layout of the machine that ran the program.
enum ProjectPaths {
    private static let roots = LockedValue<[String: String?]>([:])

    /// `path` relative to its project, or its file name when no project holds it.
    static func relative(_ path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        let base = roots.value(for: folder) { projectRoot(above: folder) } ?? FileManager.default.currentDirectoryPath
        let prefix = base.hasSuffix("/") ? base : base + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : (path as NSString).lastPathComponent
    }

    private static func projectRoot(above folder: String) -> String? {
        var current = folder
        while !current.isEmpty, current != "/" {
            for marker in ["Package.swift", ".git"]
            where FileManager.default.fileExists(atPath: (current as NSString).appendingPathComponent(marker)) {
                return current
            }
            current = (current as NSString).deletingLastPathComponent
        }
        return nil
    }
}
