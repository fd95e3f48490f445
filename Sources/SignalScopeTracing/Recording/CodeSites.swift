@_spi(Internal) import Runtime
@_spi(Locking) import SignalScope
import SignalScopeHeap

/// Where code is in the program's source, from its debug information: the line a function
/// starts at. Two things need it at the snapshot: a closure the runtime did not report (a
/// callback stored on an object), located at its own line so that a finding about what it
/// captures points there; and a class of the program's, located at the line of its
/// deallocating `deinit`, which the compiler places at the class's declaration (or at the
/// `deinit` the class writes), where a property to make weak is.
///
/// Symbolication costs milliseconds, so each function is looked up once per process, all the
/// new ones of a snapshot in one pass (`Backtrace` from the toolchain's `Runtime` module, as
/// ``SendStack`` uses it).
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
        let frames = functions.sorted().map { RichFrame<UInt64>.programCounter(UInt64($0)) }
        guard let symbolicated = Backtrace(architecture: architecture, frames: frames, images: LoadedImages.capture()).symbolicated()
        else { return [:] }
        var sites: [UInt: TraceSite] = [:]
        // An inlined frame comes before the function it was inlined into: the function is
        // what starts at the address.
        for frame in symbolicated.frames where !frame.inlined {
            guard let counter = UInt64(frame.captured.originalProgramCounter), let symbol = frame.symbol,
                let (site, _) = SourceSites.site(of: symbol)
            else { continue }
            sites[UInt(counter)] = site
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
        guard let symbolicated = Backtrace(architecture: CodeSites.architecture, frames: frames, images: LoadedImages.capture()).symbolicated()
        else { return [:] }
        var sites: [UInt: TraceSite] = [:]
        // Each address gives its inlined frames, innermost first, then the function it is in:
        // the innermost one somebody wrote outside the libraries is where the call is.
        var index = 0
        var found: TraceSite?
        for frame in symbolicated.frames where index < addresses.count {
            if found == nil, let symbol = frame.symbol, !frame.isSwiftThunk, !frame.isSystem, !SourceSites.isLibrary(symbol.rawName) {
                found = SourceSites.site(of: symbol)?.site
            }
            guard !frame.inlined else { continue }
            if let found { sites[addresses[index]] = found }
            (found, index) = (nil, index + 1)
        }
        return sites
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
