import Foundation
import Runtime
import Synchronization

/// Names closures the runtime did not report (a callback a screen stores, a closure nested
/// in an observer) from their function's symbol: "closure #1 in ProfileScreen.bind()" says
/// where the closure is written, which is where a fix would go.
///
/// The toolchain's `Runtime` module reads the symbol tables of every loaded image, static
/// symbols included, which `dladdr` does not see. It symbolicates backtraces only, so the
/// addresses are handed to it as the frames of one, written in the Compact Backtrace Format
/// (`docs/CompactBacktraceFormat.md` in the Swift repository) through `Backtrace`'s
/// `Codable` form. (A closure's function pointer is most often a compiler-made forwarder to
/// its code, which debug information places nowhere: names, not lines, are what it gives.)
enum Symbols {
    /// The names of the closures whose code starts at `functions`; those the symbol tables
    /// do not name, and reabstraction thunks (which only adapt the closure they wrap), are
    /// left out. Names are kept for the process's life: code does not move.
    static func closureNames(at functions: [UInt]) -> [UInt: String] {
        let wanted = Set(functions.filter { $0 != 0 })
        var names = cache.withLock { cache in cache.filter { wanted.contains($0.key) } }
        let unknown = wanted.subtracting(names.keys).sorted()
        guard !unknown.isEmpty else { return names.compactMapValues { $0 } }
        let frames = symbolicatedFrames(unknown)
        for (index, function) in unknown.enumerated() {
            names[function] = frames?[index].symbol.flatMap(closureName)
        }
        if frames != nil { cache.withLock { $0.merge(names) { $1 } } }
        return names.compactMapValues { $0 }
    }

    private static let cache = Mutex<[UInt: String?]>([:])

    /// `partial apply for closure #1 in Screen.bind()` as `closure #1 in Screen.bind()`.
    private static func closureName(_ symbol: SymbolicatedBacktrace.Symbol) -> String? {
        var name = symbol.name
        guard !name.isEmpty, name != symbol.rawName, !name.contains("thunk for ") else { return nil }
        for prefix in ["partial apply forwarder for ", "partial apply for "] where name.hasPrefix(prefix) {
            name.removeFirst(prefix.count)
        }
        return name
    }

    /// One symbolicated frame per address, in order; `nil` if the runtime could not do it.
    private static func symbolicatedFrames(_ addresses: [UInt]) -> [SymbolicatedBacktrace.Frame]? {
        // Version 0, 64-bit words; then per address `pc`, absolute, 8 bytes big-endian.
        var encoded: [UInt8] = [0b0000_0010]
        for address in addresses {
            encoded.append(0b0001_1111)
            for shift in stride(from: 56, through: 0, by: -8) { encoded.append(UInt8(truncatingIfNeeded: address >> UInt(shift))) }
        }
        encoded.append(0)
        guard let template = try? Backtrace.capture(limit: 1),
            let json = try? JSONEncoder().encode(template),
            var fields = (try? JSONSerialization.jsonObject(with: json)) as? [String: Any]
        else { return nil }
        fields["backtrace"] = Data(encoded).base64EncodedString()
        guard let edited = try? JSONSerialization.data(withJSONObject: fields),
            let backtrace = try? JSONDecoder().decode(Backtrace.self, from: edited),
            let symbolicated = backtrace.symbolicated(with: ImageMap.capture(), options: [])
        else { return nil }
        let frames = Array(symbolicated.frames)
        return frames.count == addresses.count ? frames : nil
    }
}
