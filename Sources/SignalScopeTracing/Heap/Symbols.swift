#if canImport(Glibc)
import Glibc
#endif
import CTracingSupport
import Synchronization

/// Names closures the runtime did not report, from their function's symbol: "closure #1 in
/// Screen.init()" says where the closure is written, which is where a fix would go.
enum Symbols {
    /// The closure whose code starts at `function`, as "closure #N in Type.function()";
    /// `nil` when the image exports no symbol for it.
    static func closureName(_ function: UInt) -> String? {
        if let known = cache.withLock({ $0[function] }) { return known }
        let name = lookUp(function)
        cache.withLock { $0[function] = .some(name) }
        return name
    }

    private static let cache = Mutex<[UInt: String?]>([:])

    private static func lookUp(_ function: UInt) -> String? {
        guard let pointer = UnsafeRawPointer(bitPattern: function), let symbol = signalscope_symbol_name(pointer) else {
            return nil
        }
        let mangled = String(cString: symbol)
        guard let demangled = swift_demangle(symbol, mangled.utf8.count, nil, nil, 0) else { return nil }
        defer { free(demangled) }
        return shortened(String(cString: demangled))
    }

    /// `closure #1 (Swift.Int) -> () in Module.Screen.bind() -> ()` as
    /// `closure #1 in Module.Screen.bind()`.
    static func shortened(_ demangled: String) -> String {
        guard demangled.hasPrefix("closure #"), let number = demangled.split(separator: " ").dropFirst().first,
            let enclosing = demangled.range(of: " in ", options: .backwards)
        else { return demangled }
        var function = String(demangled[enclosing.upperBound...])
        // Drop the result type: what follows the parameter list's closing parenthesis.
        if let arrow = function.range(of: ") -> ", options: .backwards) {
            function = String(function[..<arrow.lowerBound]) + ")"
        }
        return "closure \(number) in \(function)"
    }
}
