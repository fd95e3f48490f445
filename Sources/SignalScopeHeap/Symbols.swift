import CTracingSupport
import Foundation
@_spi(Locking) import SignalScope

/// Names closures the runtime did not report (a callback a screen stores, a closure nested
/// in an observer) from their function's symbol: "closure #1 in ProfileScreen.bind()" says
/// where the closure is written, which is where a fix would go.
///
/// Closures' functions are local symbols, which `dladdr` does not see: they are in the
/// image's static symbol table (`.symtab`), read here from the image's file. The toolchain's
/// `Runtime` module can symbolicate too, but it reads images in memory, and crashed when a
/// library it had listed was unloaded meanwhile (Graphviz unloads its plugins); a file on
/// disk cannot go away under the reader that way.
package enum Symbols {
    /// The names of the closures whose code starts at `functions`; those no symbol table
    /// names, and reabstraction thunks (which only adapt the closure they wrap), are left
    /// out. Code does not move, so names are kept for the process's life.
    package static func closureNames(at functions: [UInt]) -> [UInt: String] {
        var found: [UInt: String] = [:]
        for function in Set(functions) where function != 0 {
            if let name = names.value(for: function, orFind: { lookUp(function) }) { found[function] = name }
        }
        return found
    }

    /// Where the code of the closure a partial-application forwarder at `function` calls
    /// starts (the forwarder's symbol is the closure's with `TA` after it), so that debug
    /// information can place the closure: the forwarder itself is compiler-generated.
    package static func implementation(ofForwarder function: UInt) -> UInt? {
        implementations.value(for: function) { lookUpImplementation(ofForwarder: function) }
    }

    private static let implementations = LockedValue<[UInt: UInt?]>([:])

    private static func lookUpImplementation(ofForwarder function: UInt) -> UInt? {
        guard let (mangled, table, base) = symbol(at: function), mangled.hasSuffix("TA"),
            let start = table.start(ofSymbol: String(mangled.dropLast(2)))
        else { return nil }
        return base + start
    }

    /// Whether the code at `function` is the forwarder of a reabstraction thunk (`…TRTA`): a
    /// closure passed to generic code is stored so, the closure itself first in the thunk's
    /// context. Code does not move, so the answer is kept for the process's life.
    package static func isReabstractionThunkForwarder(_ function: UInt) -> Bool {
        thunkForwarders.value(for: function) { symbol(at: function)?.mangled.hasSuffix("TRTA") ?? false }
    }

    private static let thunkForwarders = LockedValue<[UInt: Bool]>([:])

    /// The symbol the code at `function` is in, with the table that names it and where its
    /// image is loaded.
    private static func symbol(at function: UInt) -> (mangled: String, table: ELFSymbolTable, base: UInt)? {
        var path: UnsafePointer<CChar>?
        var base: UInt = 0
        guard let address = UnsafeRawPointer(bitPattern: function), signalscope_image_containing(address, &path, &base),
            let path, let table = table(String(cString: path)), let mangled = table.symbol(at: function - base)
        else { return nil }
        return (mangled, table, base)
    }

    private static let names = LockedValue<[UInt: String?]>([:])
    private static let tables = LockedValue<[String: ELFSymbolTable?]>([:])

    private static func lookUp(_ function: UInt) -> String? {
        symbol(at: function).flatMap { closureName(demangling: $0.mangled) }
    }

    /// The symbol table of the image at `path`, read once.
    private static func table(_ path: String) -> ELFSymbolTable? {
        // The main program, as some loaders name it.
        let file = path.isEmpty ? "/proc/self/exe" : path
        return tables.withLock { cache in
            if let known = cache[file] { return known }
            let table = ELFSymbolTable(path: file)
            cache[file] = .some(table)
            return table
        }
    }

    /// `partial apply for closure #1 (Swift.Int) -> () in App.Screen.bind() -> ()` as
    /// `closure #1 in Screen.bind()`; `nil` for what is not a Swift closure or method (a
    /// thunk, a C function).
    static func closureName(demangling mangled: String) -> String? {
        guard mangled.hasPrefix("$s"), let pointer = swift_demangle(mangled, mangled.utf8.count, nil, nil, 0) else {
            return nil
        }
        defer { free(pointer) }
        var name = String(cString: pointer)
        guard !name.contains("thunk") else { return nil }
        for prefix in ["partial apply forwarder for ", "partial apply for "] where name.hasPrefix(prefix) {
            name.removeFirst(prefix.count)
        }
        // Each closure's signature, up to the ` in ` that names where it is written.
        name = name.replacing(#/((?:implicit )?closure #\d+) .*? in /#) { "\($0.output.1) in " }
        // The enclosing function's result type.
        if let arrow = name.range(of: ") -> ", options: .backwards) { name = String(name[..<arrow.lowerBound]) + ")" }
        // Qualifiers a reader does not need: the closure's own module, and Swift's.
        for module in [module(ofMangled: mangled), "Swift"].compactMap({ $0 }) { name = name.replacing("\(module).", with: "") }
        return name
    }

    /// The module a Swift symbol belongs to: the identifier after `$s` (`$s6MyApp...`).
    static func module(ofMangled name: String) -> String? {
        let rest = name.dropFirst(2)
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard let length = Int(digits), length > 0 else { return nil }
        let identifier = rest.dropFirst(digits.count).prefix(length)
        return identifier.count == length ? String(identifier) : nil
    }
}

/// The function symbols of an ELF image's file, by address relative to where it is
/// loaded.
struct ELFSymbolTable: Sendable {
    private let functions: [(start: UInt, end: UInt, name: Int)]
    /// The file, mapped (an app's binary with debug information is large: nothing else of it
    /// is copied); and where its symbols' names are.
    private let file: Data
    private let names: Range<Int>

    /// Reads `path`'s static symbol table (or its dynamic one when stripped); `nil` if the
    /// file is not a 64-bit little-endian ELF file or has neither.
    init?(path: String) {
        guard let file = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) else { return nil }
        let parsed: (functions: [(UInt, UInt, Int)], names: Range<Int>)? = file.withUnsafeBytes { bytes in
            func u16(_ at: Int) -> Int { at >= 0 && at + 2 <= bytes.count ? Int(bytes[at]) | Int(bytes[at + 1]) << 8 : 0 }
            func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
            func u64(_ at: Int) -> UInt { UInt(u32(at)) | UInt(u32(at + 4)) << 32 }
            guard bytes.count > 64, bytes[0] == 0x7F, bytes[1] == 0x45, bytes[2] == 0x4C, bytes[3] == 0x46,
                bytes[4] == 2, bytes[5] == 1
            else { return nil }
            // Symbol values are virtual addresses; the image is loaded at its lowest one.
            let programHeaders = Int(clamping: u64(0x20)), programHeaderSize = u16(0x36), programHeaderCount = u16(0x38)
            var lowest = UInt.max
            for index in 0..<programHeaderCount {
                let header = programHeaders + index * programHeaderSize
                if u32(header) == 1 { lowest = min(lowest, u64(header + 16) & ~UInt(0xFFF)) }  // PT_LOAD, page-aligned
            }
            guard lowest != .max else { return nil }
            let sections = Int(clamping: u64(0x28)), sectionSize = u16(0x3A), sectionCount = u16(0x3C)
            func section(_ index: Int) -> (type: Int, offset: Int, size: Int, link: Int)? {
                let header = sections + index * sectionSize
                guard index < sectionCount, header + 64 <= bytes.count else { return nil }
                let offset = Int(clamping: u64(header + 24)), size = Int(clamping: u64(header + 32))
                guard offset >= 0, size >= 0, offset <= bytes.count - size else { return nil }
                return (u32(header + 4), offset, size, u32(header + 40))
            }
            let all = (0..<sectionCount).compactMap(section)
            guard let table = all.first(where: { $0.type == 2 }) ?? all.first(where: { $0.type == 11 }),  // SYMTAB, DYNSYM
                let names = section(table.link)
            else { return nil }
            var functions: [(UInt, UInt, Int)] = []
            for entry in stride(from: table.offset, through: table.offset + table.size - 24, by: 24) {
                let size = u64(entry + 16), value = u64(entry + 8)
                guard bytes[entry + 4] & 0xF == 2, size > 0, value >= lowest, u32(entry) < names.size else { continue }  // STT_FUNC
                functions.append((value - lowest, value - lowest + size, names.offset + u32(entry)))
            }
            return (functions.sorted { $0.0 < $1.0 }, names.offset..<(names.offset + names.size))
        }
        guard let parsed else { return nil }
        self.file = file
        functions = parsed.functions
        names = parsed.names
    }

    /// Where the function named `name` starts (from where the image is loaded): a scan of
    /// every symbol, for the few closures a snapshot places.
    func start(ofSymbol name: String) -> UInt? {
        let wanted = Array(name.utf8) + [0]
        return file.withUnsafeBytes { bytes in
            functions.first { function in
                function.name + wanted.count <= names.upperBound
                    && memcmp(bytes.baseAddress! + function.name, wanted, wanted.count) == 0
            }?.start
        }
    }

    /// The name of the function whose code contains `offset` (from where the image is
    /// loaded).
    func symbol(at offset: UInt) -> String? {
        var low = 0, high = functions.count
        while low < high {
            let middle = (low + high) / 2
            if functions[middle].start <= offset { low = middle + 1 } else { high = middle }
        }
        guard low > 0, case let function = functions[low - 1], offset < function.end else { return nil }
        let end = file[function.name..<names.upperBound].firstIndex(of: 0) ?? names.upperBound
        return String(decoding: file[function.name..<end], as: UTF8.self)
    }
}
