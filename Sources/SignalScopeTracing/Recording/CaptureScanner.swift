import CTracingSupport
import Synchronization

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
/// captures of generic contexts, boxes without a known type). A word that may not point at
/// live memory is read through the kernel (`process_vm_readv` on our own pid fails instead
/// of faulting), and counts as an object only if its metadata checks out as a Swift class.
/// What each metadata record says is decoded once per process, so a scan costs a few reads.
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
    /// The metadata word read at each address so far (`nil`: unreadable): closures of one
    /// observer often hold the same objects, and each read through the kernel is a system call.
    private var metadataAt: [UInt: UInt?] = [:]

    /// The objects a closure whose context is `context` strongly captures, in the order
    /// they were found, once per strong reference. `context` must be read from where the
    /// closure is stored.
    /// - Parameter isHeld: Whether the closure is certainly alive while the scan runs (it is
    ///   being stored on this thread), so the words of its context can be read directly
    ///   rather than through the kernel.
    static func strongCaptures(ofContext context: UnsafeRawPointer, isHeld: Bool) -> [Captured] {
        var scanner = CaptureScanner()
        scanner.scanContext(UInt(bitPattern: context), depth: 0, isHeld: isHeld)
        return scanner.found
    }

    /// Scans a closure's context word: an object, or a box to walk (once). An object found
    /// by an exact walk is reported once per reference, so counts match its strong
    /// references; one found by a conservative scan only if nothing found it before, since
    /// such a scan may read stale words and an overcount could make a reachable object look
    /// leaked. `isHeld` says the block is alive, so its own words can be read directly.
    private mutating func scanContext(_ context: UInt, depth: Int, exact: Bool = true, isHeld: Bool = false) {
        let memory = Memory(isHeld: isHeld)
        guard depth <= Self.maximumDepth, isPlausibleHeapPointer(context), let metadata = metadata(at: context, memory)
        else { return }
        switch MetadataInfo.of(metadata) {
        case .closureContext(let steps), .genericBox(let steps):
            guard visited.insert(context).inserted else { return }
            for step in steps { perform(step, in: context, memory: memory, depth: depth) }
        case .object(let typeName):
            guard exact || !foundAddresses.contains(context) else { return }
            found.append(Captured(address: context, typeName: typeName))
            foundAddresses.insert(context)
        case .libraryObject, .other:
            return
        }
    }

    private mutating func metadata(at address: UInt, _ memory: Memory) -> UInt? {
        if memory.isHeld { return memory.word(address) }
        if let known = metadataAt[address] { return known }
        let read = memory.word(address)
        metadataAt[address] = read
        return read
    }

    private mutating func perform(_ step: CaptureStep, in block: UInt, memory: Memory, depth: Int) {
        switch step {
        case .value(let offset, let size):
            scanValue(at: block + UInt(offset), size: size, memory: memory, depth: depth)
        case .reference(let offset):
            // What a strong reference in a live block points at is alive too.
            if let object = memory.word(block + UInt(offset)) { scanContext(object, depth: depth + 1, isHeld: memory.isHeld) }
        case .closure(let contextOffset):
            // A captured closure's context is owned by the block, so alive as long as it is.
            if let nested = memory.word(block + UInt(contextOffset)) {
                scanContext(nested, depth: depth + 1, isHeld: memory.isHeld)
            }
        case .rest(let offset):
            // With no layout to go by, the rest of the heap block, word by word.
            guard let start = UnsafeMutableRawPointer(bitPattern: block) else { return }
            let size = signalscope_heap_block_size(start)
            guard size > offset else { return }
            scanValue(at: block + UInt(offset), size: size - offset, memory: memory, depth: depth, exact: false)
        }
    }

    /// Looks at every word of a value: an object, or the context of a closure it holds.
    /// Any word may be a plain number, so what it points at is read through the kernel, all
    /// of the value's words in one system call.
    private mutating func scanValue(at address: UInt, size: Int, memory: Memory, depth: Int, exact: Bool = true) {
        let words = memory.words(at: address, count: size / 8).compactMap { $0 }
        var unread: [UInt] = []
        var queued: Set<UInt> = []
        for word in words where isPlausibleHeapPointer(word) && metadataAt[word] == nil && queued.insert(word).inserted {
            unread.append(word)
        }
        for (word, metadata) in zip(unread, Memory.readWords(at: unread)) { metadataAt[word] = metadata }
        for word in words { scanContext(word, depth: depth + 1, exact: exact) }
    }

    private func isPlausibleHeapPointer(_ word: UInt) -> Bool {
        word & 0xF == 0 && word >= 0x10000 && word < 0x0000_8000_0000_0000
    }
}

/// How the scanner reads a block's words: directly when the block is known to be alive,
/// else through the kernel, which fails instead of faulting on an unmapped address.
private struct Memory {
    let isHeld: Bool

    func word(_ address: UInt) -> UInt? {
        if isHeld { return UnsafeRawPointer(bitPattern: address)?.loadUnaligned(as: UInt.self) }
        return Memory.readWord(address)
    }

    /// `count` consecutive words from `address`.
    func words(at address: UInt, count: Int) -> [UInt?] {
        guard count > 0 else { return [] }
        if !isHeld, let bytes = Memory.readBytes(address, count: 8 * count) {
            return (0..<count).map { bytes.load(fromByteOffset: 8 * $0, as: UInt.self) }
        }
        return (0..<count).map { word(address + UInt(8 * $0)) }
    }

    static func readWord(_ address: UInt) -> UInt? {
        readBytes(address, count: 8)?.load(as: UInt.self)
    }

    /// The word at each of `addresses` (`nil` where unreadable), read in one system call
    /// unless some are unreadable.
    static func readWords(at addresses: [UInt]) -> [UInt?] {
        var values = [UInt](repeating: 0, count: addresses.count)
        var readable = [Bool](repeating: false, count: addresses.count)
        addresses.withUnsafeBufferPointer { addresses in
            values.withUnsafeMutableBufferPointer { values in
                readable.withUnsafeMutableBufferPointer { readable in
                    signalscope_read_words(addresses.baseAddress!, values.baseAddress!, readable.baseAddress!, addresses.count)
                }
            }
        }
        return zip(values, readable).map { $1 ? $0 : nil }
    }

    static func readBytes(_ address: UInt, count: Int) -> Bytes? {
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { buffer in
            signalscope_read_memory(buffer.baseAddress!, UnsafeRawPointer(bitPattern: address), count)
        }
        return read ? Bytes(storage: bytes) : nil
    }
}

/// One part of a heap block's layout to scan.
private enum CaptureStep: Sendable {
    /// A value of `size` bytes at `offset`: every word of it may be a reference.
    case value(offset: Int, size: Int)
    /// A strong reference to a class instance at `offset`.
    case reference(offset: Int)
    /// A thick closure whose context word is at `contextOffset`.
    case closure(contextOffset: Int)
    /// The rest of the block from `from`, scanned conservatively.
    case rest(from: Int)
}

/// What a metadata record says about the blocks that point at it, worked out once per
/// record and kept for the life of the process (metadata records are never freed), since
/// decoding a capture descriptor through checked reads costs far more than the scan.
private enum MetadataInfo: Sendable {
    /// A closure context, to walk by these steps.
    case closureContext([CaptureStep])
    /// A generic box (a captured `var`), to walk by these steps.
    case genericBox([CaptureStep])
    /// A user class instance.
    case object(typeName: String)
    /// Standard library storage (array and string buffers, ...): never the object a leak
    /// report is about, and what a conservative scan most often meets.
    case libraryObject
    /// Not metadata at all (a number, a stale word): not cached, as such words are many.
    case other

    private static let known = Mutex<[UInt: MetadataInfo]>([:])

    private enum Kind {
        static let `class`: UInt = 0
        static let closureContext: UInt = 0x400
        static let genericBox: UInt = 0x500
    }

    static func of(_ metadata: UInt) -> MetadataInfo {
        if let info = known.withLock({ $0[metadata] }) { return info }
        let info = decode(metadata)
        if case .other = info { return info }
        known.withLock { $0[metadata] = info }
        return info
    }

    private static func decode(_ metadata: UInt) -> MetadataInfo {
        // The first word of a block that is not an object (a number, a freed block's link)
        // is often not even an address: no need to ask the kernel.
        guard metadata & 0x7 == 0, metadata >= 0x10000, metadata < 0x0000_8000_0000_0000,
            let kind = Memory.readWord(metadata)
        else { return .other }
        switch kind {
        case Kind.closureContext: return .closureContext(closureSteps(metadata))
        case Kind.genericBox: return .genericBox(boxSteps(metadata))
        default:
            guard let typeName = classTypeName(metadata) else { return .other }
            return typeName.hasPrefix("Swift.") ? .libraryObject : .object(typeName: typeName)
        }
    }

    /// A closure context's captures start at offset 16, after any generic arguments it
    /// carries; its metadata points to a capture descriptor naming each capture's type.
    private static func closureSteps(_ metadata: UInt) -> [CaptureStep] {
        guard let descriptor = Memory.readWord(metadata + 16), descriptor != 0,
            let counts = Memory.readBytes(descriptor, count: 12)
        else { return [.rest(from: 16)] }
        let captureCount = Int(counts.load(as: UInt32.self))
        let metadataSourceCount = Int(counts.load(fromByteOffset: 4, as: UInt32.self))
        let bindingCount = Int(counts.load(fromByteOffset: 8, as: UInt32.self))
        var offset = 16 + 8 * bindingCount
        let isGeneric = metadataSourceCount > 0 || bindingCount > 0
        var steps: [CaptureStep] = []
        for index in 0..<captureCount {
            let field = descriptor + 12 + UInt(4 * index)
            guard let relative = Memory.readBytes(field, count: 4)?.load(as: Int32.self),
                let name = MangledName.read(at: UInt(bitPattern: Int(bitPattern: field) + Int(relative)))
            else { return steps + [.rest(from: offset)] }
            if name.isWeakOrUnowned {
                offset += 8
                continue
            }
            // A captured closure is mangled as a lowered function type, which the runtime
            // cannot resolve, but its layout is fixed whatever its type: one word when thin,
            // else a function pointer and a context to follow.
            if let thick = name.functionIsThick {
                offset = (offset + 7) & ~7
                if thick { steps.append(.closure(contextOffset: offset + 8)) }
                offset += thick ? 16 : 8
                continue
            }
            // The other captures of a generic context name its generic parameters, which
            // cannot be resolved without them (and the runtime traps rather than failing).
            guard !isGeneric, let type = name.resolve() else { return steps + [.rest(from: offset)] }
            let layout = Layout(type)
            offset = (offset + layout.alignment - 1) & ~(layout.alignment - 1)
            steps.append(type is AnyClass ? .reference(offset: offset) : .value(offset: offset, size: layout.size))
            offset += layout.size
        }
        return steps
    }

    /// A generic box holds one value, whose type its metadata names.
    private static func boxSteps(_ metadata: UInt) -> [CaptureStep] {
        guard let boxed = Memory.readWord(metadata + 16), let layout = Layout(metadata: boxed) else {
            return [.rest(from: 16)]
        }
        return [.value(offset: (16 + layout.alignment - 1) & ~(layout.alignment - 1), size: layout.size)]
    }

    /// The type name of a Swift class metadata record, or `nil` if `metadata` is not one.
    private static func classTypeName(_ metadata: UInt) -> String? {
        // Linux class metadata: kind 0, superclass, flags, instance address point, instance
        // size (u32 at 24), alignment mask (u16 at 28), ..., description at 40, whose flags'
        // low five bits are 16 for a class.
        guard let header = Memory.readBytes(metadata, count: 48), header.load(as: UInt.self) == Kind.class else {
            return nil
        }
        let instanceSize = header.load(fromByteOffset: 24, as: UInt32.self)
        let alignMask = header.load(fromByteOffset: 28, as: UInt16.self)
        let description = header.load(fromByteOffset: 40, as: UInt.self)
        guard (16...(1 << 24)).contains(instanceSize), alignMask & (alignMask &+ 1) == 0,
            let flags = Memory.readBytes(description, count: 4)?.load(as: UInt32.self), flags & 0x1F == 16,
            let type = unsafeBitCast(metadata, to: Any.Type?.self)
        else { return nil }
        return _typeName(type, qualified: true)
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

    static func read(at address: UInt) -> MangledName? {
        var bytes: [UInt8] = []
        var cursor = address
        while bytes.count < 1024, let byte = Memory.readBytes(cursor, count: 1)?.load(as: UInt8.self), byte != 0 {
            // 0x01...0x17 start a symbolic reference: the byte and a 4-byte relative offset.
            let length = (1...0x17).contains(byte) ? 5 : 1
            guard let chunk = Memory.readBytes(cursor, count: length) else { return nil }
            bytes += chunk
            cursor += UInt(length)
        }
        return MangledName(address: address, bytes: bytes)
    }

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
