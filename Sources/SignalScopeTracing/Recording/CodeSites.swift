@_spi(Internal) import Runtime
@_spi(Locking) import SignalScope
import CTracingSupport
import SignalScopeHeap

/// Where code is in the program's source, from its debug information: the line a function
/// starts at. Two things need it at the snapshot: a closure the runtime did not report (a
/// callback stored on an object), located at its own line so that a finding about what it
/// captures points there; and a class of the program's, located at the line of its
/// deallocating `deinit`, which the compiler places at the class's declaration (or at the
/// `deinit` the class writes), where a property to make weak is.
///
/// Each function is looked up once per process, all the new ones of a snapshot in one pass:
/// its symbol from the toolchain's `Runtime` module, its line from ``SourceLines``.
enum CodeSites {
    /// Sites already looked up, by function address.
    private static let known = SiteCache()

    /// The site of each function (by the address its code starts at) that debug information
    /// places in code somebody wrote.
    static func sites(ofFunctions functions: Set<UInt>) -> [UInt: TraceSite] {
        known.sites(of: functions, lookUp: lookUp)
    }

    /// The declaration site of each class (by its metadata's address) that debug information
    /// places.
    static func sites(ofClasses classes: Set<UInt>) -> [UInt: TraceSite] {
        // A Swift class's full metadata keeps its deallocating deinit two words before the
        // address the isa points at.
        var destructors: [UInt: UInt] = [:]
        for metadata in classes {
            if let destroy = Memory.word(at: metadata &- 16), destroy != 0 { destructors[metadata] = destroy }
        }
        let sites = sites(ofFunctions: Set(destructors.values))
        return destructors.compactMapValues { sites[$0] }
    }

    private static func lookUp(_ functions: [UInt]) -> [UInt: TraceSite] {
        let frames = functions.map { RichFrame<UInt64>.programCounter(UInt64($0)) }
        let placed = PlacedFrame.frames(
            of: Backtrace(architecture: architecture, frames: frames, images: LoadedImages.capture()), atFunctionStarts: true)
        var sites: [UInt: TraceSite] = [:]
        // An inlined frame comes before the function it was inlined into: the function is
        // what starts at the address.
        for (function, frames) in zip(functions, placed) {
            if let site = frames.last?.written?.site { sites[function] = site }
        }
        return sites
    }

    static var architecture: String {
        #if arch(x86_64)
        "x86_64"
        #elseif arch(arm64)
        "arm64"
        #else
        "unknown"
        #endif
    }
}

/// The sites locations known by their code name (`SourceLocation(callers:)`): the innermost
/// of each one's return addresses in code somebody wrote outside the reactive libraries
/// (``SourceSites/isLibrary(_:)``). Symbolication costs a second or more the first time on a
/// thread, so the recorder asks once, for every such location, when the recording ends.
///
/// Reading a line from debug information runs the line program of the address's unit, which
/// in a large binary costs far more than the rest of a recording: each address is looked up
/// once per process, and only as deep into each location as its innermost site needs (the
/// first few frames at first, twice as many each time none of them is somebody's code), never
/// the test runner's or the thread's frames beyond it.
enum CallerSites {
    /// Sites already looked up, by return address (`nil`: not in code somebody wrote).
    private static let known = SiteCache()

    static func sites(of locations: [[UInt]]) -> [[UInt]: TraceSite] {
        var sites: [[UInt]: TraceSite] = [:]
        var pending = Array(Set(locations))
        var (start, depth) = (0, 4)
        while !pending.isEmpty {
            let end = start + depth
            let found = known.sites(of: Set(pending.flatMap { $0[min(start, $0.count)..<min(end, $0.count)] }).subtracting([0]), lookUp: lookUp)
            pending = pending.filter { callers in
                // The frames before `start` are nobody's code: the innermost site is further out.
                if let site = callers[min(start, callers.count)..<min(end, callers.count)].lazy.compactMap({ found[$0] }).first {
                    sites[callers] = site
                    return false
                }
                return callers.count > end
            }
            (start, depth) = (end, depth * 2)
        }
        return sites
    }

    private static func lookUp(_ addresses: [UInt]) -> [UInt: TraceSite] {
        let frames = addresses.map { RichFrame<UInt64>.returnAddress(UInt64($0)) }
        let placed = PlacedFrame.frames(of: Backtrace(architecture: CodeSites.architecture, frames: frames, images: LoadedImages.capture()))
        var sites: [UInt: TraceSite] = [:]
        // Each address gives its inlined frames, innermost first, then the function it is in:
        // the innermost one somebody wrote outside the libraries is where the call is.
        for (address, frames) in zip(addresses, placed) {
            if let site = frames.lazy.compactMap(\.usersSite).first { sites[address] = site }
        }
        return sites
    }
}

/// A frame of a stack, placed in the source.
struct PlacedFrame {
    let symbol: SymbolicatedBacktrace.Symbol?
    let location: (path: String, line: Int)?
    /// A thunk, a system function, or a reactive library's: not somebody's code.
    let isLibrary: Bool

    /// Its site, if it is somebody's code outside the libraries, at a line they wrote.
    var usersSite: TraceSite? { user?.site }

    /// Its site and the path of its file, relative to the project, as ``usersSite``.
    var user: (site: TraceSite, path: String)? { isLibrary ? nil : written }

    /// Its site and the path of its file, relative to the project, if it is at a line somebody
    /// wrote, in a library or not.
    var written: (site: TraceSite, path: String)? {
        guard let symbol, let location else { return nil }
        return SourceSites.site(of: symbol, path: location.path, line: location.line)
    }

    private init(_ frame: SymbolicatedBacktrace.Frame, location: (path: String, line: Int)?) {
        symbol = frame.symbol
        self.location = location
        isLibrary = frame.isSwiftThunk || frame.isSystem || frame.symbol.map { SourceSites.isLibrary($0.rawName) } ?? true
    }

    /// The frames at each of `backtrace`'s addresses, in its order: an address's inlined
    /// frames, innermost first, then the function they are in.
    ///
    /// The `Runtime` module reads inlined frames from `.debug_info`, but runs every line program
    /// of the image for each address (``SourceLines``). It is asked only about addresses in a
    /// function with code from more than one file written by somebody: in a function whose
    /// lines are all in one file, whatever is inlined comes from that file, so the innermost
    /// frame somebody wrote is at the address's own line (only its function's name, the
    /// inlined one's, could differ). `atFunctionStarts`: every address is where a function's
    /// code starts, where nothing is inlined, so only ``SourceLines`` is asked, and the
    /// `Runtime` module only where it cannot answer.
    static func frames(of backtrace: Backtrace, atFunctionStarts: Bool = false) -> [[PlacedFrame]] {
        guard let symbols = backtrace.symbolicated(options: []) else { return [] }
        var placed: [[PlacedFrame]] = []
        var askRuntime: [(index: Int, address: UInt64)] = []
        for frame in symbols.frames {
            let address = UInt64(frame.captured.adjustedProgramCounter) ?? 0
            if frame.symbol == nil || address == 0 {
                placed.append([PlacedFrame(frame, location: nil)])
            } else if let location = SourceLines.location(of: UInt(address)),
                atFunctionStarts
                    || (location.line > 0 && SourceSites.isWritten(location.path)
                        && SourceLines.writtenFiles(ofFunctionAt: UInt(address)) == [location.path])
            {
                placed.append([PlacedFrame(frame, location: location)])
            } else {
                askRuntime.append((placed.count, address))
                placed.append([])
            }
        }
        guard !askRuntime.isEmpty else { return placed }
        let frames = askRuntime.map { RichFrame<UInt64>.programCounter($0.address) }
        let images = backtrace.images ?? LoadedImages.capture()
        guard let symbolicated = Backtrace(architecture: CodeSites.architecture, frames: frames, images: images).symbolicated() else {
            return placed
        }
        var asked = 0
        for frame in symbolicated.frames where asked < askRuntime.count {
            placed[askRuntime[asked].index].append(PlacedFrame(frame, location: frame.symbol?.sourceLocation.map { ($0.path, $0.line) }))
            if !frame.inlined { asked += 1 }
        }
        return placed
    }
}

/// The source line of code at an address, read from its image's DWARF line tables by
/// CTracingSupport's reader, which indexes an image's sequences once and then runs only the
/// one covering an address (the `Runtime` module runs them all for every address, which in a
/// large binary takes tens of milliseconds an address). `nil` where that reader cannot read
/// the image (compressed or separate debug information), or the file's directory is the
/// compile unit's.
enum SourceLines {
    static func location(of address: UInt) -> (path: String, line: Int)? {
        var found = signalscope_source_line_t()
        guard signalscope_source_line(address, &found), let path = path(of: found), path.hasPrefix("/") else { return nil }
        return (path, Int(found.line))
    }

    /// The files somebody wrote (``SourceSites/isWritten(_:)``) that the function holding
    /// `address` has lines in; `nil` if unknown.
    static func writtenFiles(ofFunctionAt address: UInt) -> Set<String>? {
        var files = [signalscope_source_line_t](repeating: signalscope_source_line_t(), count: 8)
        let count = signalscope_source_files_of_function(address, &files, files.count)
        guard count > 0, count <= files.count else { return nil }
        var paths: Set<String> = []
        for file in files.prefix(count) {
            guard let path = path(of: file) else { return nil }
            guard SourceSites.isWritten(path) else { continue }
            guard path.hasPrefix("/") else { return nil }
            paths.insert(path)
        }
        return paths
    }

    /// The file's path; relative where the line tables leave its directory to the unit's
    /// `DW_AT_comp_dir` (DWARF 4's directory 0), which this reader does not read: such a
    /// location is left to the `Runtime` module.
    private static func path(of line: signalscope_source_line_t) -> String? {
        guard let name = line.name.map({ String(cString: $0) }) else { return nil }
        guard !name.hasPrefix("/"), var directory = line.directory.map({ String(cString: $0) }), !directory.isEmpty else {
            return name
        }
        if !directory.hasPrefix("/"), let unit = line.unit_directory.map({ String(cString: $0) }), !unit.isEmpty {
            directory = "\(unit)/\(directory)"
        }
        return "\(directory)/\(name)"
    }
}

/// Sites looked up by code address, kept for the life of the process: code does not move while
/// its image is loaded, and symbolicating an address costs milliseconds.
private final class SiteCache: Sendable {
    /// By address; `nil`: debug information places it in nobody's code.
    private let known = LockedValue<[UInt: TraceSite?]>([:])

    /// The site of each of `addresses` that has one, looking up with `lookUp` (all at once)
    /// those never looked up before.
    func sites(of addresses: Set<UInt>, lookUp: ([UInt]) -> [UInt: TraceSite]) -> [UInt: TraceSite] {
        let unknown = known.withLock { cache in addresses.filter { $0 != 0 && cache[$0] == nil } }
        if !unknown.isEmpty {
            let found = lookUp(Array(unknown))
            known.withLock { cache in
                for address in unknown { cache[address] = .some(found[address]) }
            }
        }
        return known.withLock { cache in
            var sites: [UInt: TraceSite] = [:]
            for address in addresses { if let site = cache[address] ?? nil { sites[address] = site } }
            return sites
        }
    }
}
