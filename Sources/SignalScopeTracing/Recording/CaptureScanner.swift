import CTracingSupport

/// Finds the class instances a closure strongly captures, with no annotations.
///
/// A Swift closure is two words: a function pointer and a context. The context is either
/// the single object the closure captures, or a heap box of metadata kind 0x400 (a closure
/// context) or 0x500 (a generic box) whose captures start at offset 16, after any generic
/// arguments the box carries. A closure context's metadata points to a capture descriptor
/// listing each capture's mangled type: the walk resolves those types to step through the
/// captures by their real size, skips weak (`Xw`), unowned (`Xo`) and unowned(unsafe) (`Xu`)
/// ones, follows nested closures (reabstraction thunks wrap the original closure as a
/// function capture), and scans conservatively what it must not or cannot resolve (the
/// captures of generic contexts, boxes without a known type). Every word is checked readable before it is dereferenced
/// (`process_vm_readv` on our own pid fails instead of faulting), and a word counts as an
/// object only if it points at something whose metadata checks out as a Swift class.
struct CaptureScanner {
    /// A strongly captured object.
    struct Captured: Hashable {
        let address: UInt
        let typeName: String
    }

    /// How many closures deep the walk goes.
    static let maximumDepth = 4

    private var found: [Captured] = []
    private var foundAddresses: Set<UInt> = []
    private var visited: Set<UInt> = []
    private var classMetadata: [UInt: String?] = [:]

    /// The objects a closure whose context is `context` strongly captures, in the order
    /// they were found, once per strong reference. `context` must be read from where the
    /// closure is stored.
    static func strongCaptures(ofContext context: UnsafeRawPointer) -> [Captured] {
        var scanner = CaptureScanner()
        scanner.scanContext(UInt(bitPattern: context), depth: 0)
        return scanner.found
    }

    private enum Kind {
        static let `class`: UInt = 0
        static let closureContext: UInt = 0x400
        static let genericBox: UInt = 0x500
    }

    /// Scans a closure's context word: an object, or a box to walk (once). An object found
    /// by an exact walk is reported once per reference, so counts match its strong
    /// references; one found by a conservative scan only if nothing found it before, since
    /// such a scan may read stale words and an overcount could make a reachable object look
    /// leaked.
    private mutating func scanContext(_ context: UInt, depth: Int, exact: Bool = true) {
        guard depth <= Self.maximumDepth, isPlausibleHeapPointer(context),
            let metadata = readWord(context), let kind = readWord(metadata)
        else { return }
        switch kind {
        case Kind.closureContext:
            if visited.insert(context).inserted { scanClosureContext(context, metadata: metadata, depth: depth) }
        case Kind.genericBox:
            if visited.insert(context).inserted { scanGenericBox(context, metadata: metadata, depth: depth) }
        default:
            // Standard library storage (array and string buffers, ...) is never the object a
            // leak report is about, and is what a conservative scan most often meets.
            guard let typeName = classTypeName(metadata), !typeName.hasPrefix("Swift.") else { return }
            guard exact || !foundAddresses.contains(context) else { return }
            found.append(Captured(address: context, typeName: typeName))
            foundAddresses.insert(context)
        }
    }

    private mutating func scanClosureContext(_ context: UInt, metadata: UInt, depth: Int) {
        guard let descriptor = readWord(metadata + 16), descriptor != 0,
            let counts = readBytes(descriptor, count: 12)
        else { return scanConservatively(block: context, from: 16, depth: depth) }
        let captureCount = Int(counts.load(as: UInt32.self))
        let metadataSourceCount = Int(counts.load(fromByteOffset: 4, as: UInt32.self))
        let bindingCount = Int(counts.load(fromByteOffset: 8, as: UInt32.self))
        var offset = 16 + 8 * bindingCount
        let isGeneric = metadataSourceCount > 0 || bindingCount > 0
        for index in 0..<captureCount {
            let field = descriptor + 12 + UInt(4 * index)
            guard let relative = readBytes(field, count: 4)?.load(as: Int32.self),
                let name = mangledName(at: UInt(bitPattern: Int(bitPattern: field) + Int(relative)))
            else { return scanConservatively(block: context, from: offset, depth: depth) }
            if name.isWeakOrUnowned {
                offset += 8
                continue
            }
            // A captured closure is mangled as a lowered function type, which the runtime
            // cannot resolve, but its layout is fixed whatever its type: one word when thin,
            // else a function pointer and a context to follow.
            if let thick = name.functionIsThick {
                offset = (offset + 7) & ~7
                if thick, let nested = readWord(context + UInt(offset + 8)) { scanContext(nested, depth: depth + 1) }
                offset += thick ? 16 : 8
                continue
            }
            // The other captures of a generic context name its generic parameters, which
            // cannot be resolved without them (and the runtime traps rather than failing).
            guard !isGeneric, let type = name.resolve() else {
                return scanConservatively(block: context, from: offset, depth: depth)
            }
            let layout = Layout(type)
            offset = (offset + layout.alignment - 1) & ~(layout.alignment - 1)
            scanValue(at: context + UInt(offset), size: layout.size, depth: depth)
            offset += layout.size
        }
    }

    /// A generic box (a captured `var`) holds one value, whose type its metadata names.
    private mutating func scanGenericBox(_ box: UInt, metadata: UInt, depth: Int) {
        guard let boxed = readWord(metadata + 16), let layout = Layout(metadata: boxed) else {
            return scanConservatively(block: box, from: 16, depth: depth)
        }
        let offset = (16 + layout.alignment - 1) & ~(layout.alignment - 1)
        scanValue(at: box + UInt(offset), size: layout.size, depth: depth)
    }

    /// Looks at every word of a value: an object, or the context of a closure it holds.
    private mutating func scanValue(at address: UInt, size: Int, depth: Int, exact: Bool = true) {
        var offset = 0
        while offset + 8 <= size {
            if let word = readWord(address + UInt(offset)) { scanContext(word, depth: depth + 1, exact: exact) }
            offset += 8
        }
    }

    /// With no layout to go by, scans the rest of the heap block `block` word by word,
    /// from `offset`.
    private mutating func scanConservatively(block: UInt, from offset: Int, depth: Int) {
        guard let start = UnsafeMutableRawPointer(bitPattern: block) else { return }
        let size = signalscope_heap_block_size(start)
        guard size > offset else { return }
        scanValue(at: block + UInt(offset), size: size - offset, depth: depth, exact: false)
    }

    /// The type name of a Swift class metadata record, or `nil` if `metadata` is not one.
    private mutating func classTypeName(_ metadata: UInt) -> String? {
        if let known = classMetadata[metadata] { return known }
        var name: String?
        // Linux class metadata: kind 0, superclass, flags, instance address point, instance
        // size (u32 at 24), alignment mask (u16 at 28), ..., description at 40, whose flags'
        // low five bits are 16 for a class.
        if let header = readBytes(metadata, count: 48), header.load(as: UInt.self) == Kind.class {
            let instanceSize = header.load(fromByteOffset: 24, as: UInt32.self)
            let alignMask = header.load(fromByteOffset: 28, as: UInt16.self)
            let description = header.load(fromByteOffset: 40, as: UInt.self)
            if (16...(1 << 24)).contains(instanceSize), alignMask & (alignMask &+ 1) == 0,
                let flags = readBytes(description, count: 4)?.load(as: UInt32.self), flags & 0x1F == 16,
                let type = unsafeBitCast(metadata, to: Any.Type?.self)
            {
                name = _typeName(type, qualified: true)
            }
        }
        classMetadata[metadata] = name
        return name
    }

    private func mangledName(at address: UInt) -> MangledName? {
        var bytes: [UInt8] = []
        var cursor = address
        while bytes.count < 1024, let byte = readBytes(cursor, count: 1)?.load(as: UInt8.self), byte != 0 {
            // 0x01...0x17 start a symbolic reference: the byte and a 4-byte relative offset.
            let length = (1...0x17).contains(byte) ? 5 : 1
            guard let chunk = readBytes(cursor, count: length) else { return nil }
            bytes += chunk
            cursor += UInt(length)
        }
        return MangledName(address: address, bytes: bytes)
    }

    private func isPlausibleHeapPointer(_ word: UInt) -> Bool {
        word & 0xF == 0 && word >= 0x10000 && word < 0x0000_8000_0000_0000
    }

    private func readWord(_ address: UInt) -> UInt? {
        readBytes(address, count: 8)?.load(as: UInt.self)
    }

    /// Reads memory that may not be mapped without faulting.
    private func readBytes(_ address: UInt, count: Int) -> Bytes? {
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { buffer in
            signalscope_read_memory(buffer.baseAddress!, UnsafeRawPointer(bitPattern: address), count)
        }
        return read ? Bytes(storage: bytes) : nil
    }
}

/// Bytes copied out of memory that may not have been readable.
private struct Bytes {
    let storage: [UInt8]

    func load<T>(fromByteOffset offset: Int = 0, as type: T.Type) -> T {
        storage.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: type) }
    }

    static func += (lhs: inout [UInt8], rhs: Bytes) { lhs += rhs.storage }
}

/// A capture's mangled type name, as the capture descriptor stores it.
private struct MangledName {
    let address: UInt
    let bytes: [UInt8]

    /// For a lowered function type (`...I` convention flags `_`): whether it is thick (a
    /// function pointer and a context) rather than thin; `nil` for any other type.
    var functionIsThick: Bool? {
        guard bytes.last == UInt8(ascii: "_"), let marker = bytes.lastIndex(of: UInt8(ascii: "I")) else { return nil }
        var conventions = bytes[(marker + 1)...].dropLast()
        if conventions.first == UInt8(ascii: "e") { conventions = conventions.dropFirst() }  // escaping
        guard let callee = conventions.first else { return nil }
        switch callee {
        case UInt8(ascii: "t"): return false  // thin
        case UInt8(ascii: "g"), UInt8(ascii: "x"), UInt8(ascii: "y"): return true  // thick
        default: return nil
        }
    }

    /// Whether the capture is weak (`Xw`), unowned (`Xo`) or unowned(unsafe) (`Xu`), held
    /// directly or in a box of its own (`z_Xx`: a captured `weak var`).
    var isWeakOrUnowned: Bool {
        var name = bytes[...]
        for boxMarker in ["z_Xx", "_Xx"] where name.count > boxMarker.utf8.count && name.suffix(boxMarker.utf8.count).elementsEqual(boxMarker.utf8) {
            name = name.dropLast(boxMarker.utf8.count)
            break
        }
        guard name.count >= 2, name[name.index(name.endIndex, offsetBy: -2)] == UInt8(ascii: "X") else { return false }
        return [UInt8(ascii: "w"), UInt8(ascii: "o"), UInt8(ascii: "u")].contains(name.last!)
    }

    /// The type, read in place (symbolic references are relative to where they are), or
    /// `nil` for a type that depends on generic parameters.
    func resolve() -> Any.Type? {
        guard let start = UnsafePointer<CChar>(bitPattern: address),
            let metadata = swift_getTypeByMangledNameInContext(start, bytes.count, nil, nil)
        else { return nil }
        return unsafeBitCast(metadata, to: Any.Type.self)
    }
}

/// The size and alignment of a type, from its metadata.
private struct Layout {
    let size: Int
    let alignment: Int

    init(_ type: Any.Type) {
        func measure<T>(_: T.Type) -> Layout { Layout(size: MemoryLayout<T>.size, alignment: MemoryLayout<T>.alignment) }
        self = _openExistential(type, do: measure)
    }

    init?(metadata: UInt) {
        guard metadata != 0, let type = unsafeBitCast(metadata, to: Any.Type?.self) else { return nil }
        self.init(type)
    }

    private init(size: Int, alignment: Int) {
        self.size = size
        self.alignment = alignment
    }
}
