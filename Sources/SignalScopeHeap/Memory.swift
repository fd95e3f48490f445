import CTracingSupport

/// Reads this process's memory without faulting.
///
/// The heap walk follows words it found in other objects. An exact walk only meets live
/// objects, but another thread may free one meanwhile, and a conservative scan meets stale
/// words, so every object's bytes are copied through the kernel (`process_vm_readv` on our
/// own pid), which reports an unmapped address as an error instead of a segmentation fault.
/// Metadata records and type descriptors, once validated, live for the whole process and
/// are read directly.
package enum Memory {
    /// `count` bytes from `address`, or `nil` if any of them is unreadable.
    static func bytes(at address: UInt, count: Int) -> Bytes? {
        guard count > 0 else { return Bytes(base: address, storage: []) }
        var storage = [UInt8](repeating: 0, count: count)
        let read = storage.withUnsafeMutableBytes { buffer in
            signalscope_read_memory(buffer.baseAddress!, UnsafeRawPointer(bitPattern: address), count)
        }
        return read ? Bytes(base: address, storage: storage) : nil
    }

    /// The word at `address`, or `nil` if it is unreadable.
    package static func word(at address: UInt) -> UInt? {
        bytes(at: address, count: 8)?.word(at: 0)
    }

    /// The word at each of `addresses` (`nil` where unreadable), in as few system calls as
    /// the unreadable ones allow. Addresses must be 8-byte aligned.
    static func words(at addresses: [UInt]) -> [UInt?] {
        guard !addresses.isEmpty else { return [] }
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

    /// Whether the kernel lets this process read its own memory (a sandbox may deny
    /// `process_vm_readv`): a word on the caller's stack must read back.
    static var isReadable: Bool {
        var probe: UInt = 0x5167_5C09_E000_0001
        return withUnsafePointer(to: &probe) { word(at: UInt(bitPattern: $0)) } == probe
    }

    /// Whether `word` could be the address of a heap object: 16-byte aligned (Swift objects
    /// are), above the first pages, and in the user half of the address space.
    static func isPlausibleObjectAddress(_ word: UInt) -> Bool {
        word & 0xF == 0 && word >= 0x10000 && word < 0x0000_8000_0000_0000
    }

    /// Whether `word` could be the address of a metadata record (8-byte aligned).
    static func isPlausibleMetadataAddress(_ word: UInt) -> Bool {
        word & 0x7 == 0 && word >= 0x10000 && word < 0x0000_8000_0000_0000
    }

    /// Whether `word` could be the address of a type or capture descriptor (4-byte
    /// aligned: descriptors are made of 32-bit fields).
    static func isPlausibleDescriptorAddress(_ word: UInt) -> Bool {
        word & 0x3 == 0 && word >= 0x10000 && word < 0x0000_8000_0000_0000
    }
}

/// How a walk reads objects: through the kernel, or directly where an object is known to be
/// held for as long as the walk runs (the observer a subscription is storing right now).
protocol MemoryAccess {
    func bytes(at address: UInt, count: Int) -> Bytes?
    func word(at address: UInt) -> UInt?
}

/// Reads through the kernel: what may be stale fails instead of faulting.
struct CheckedMemory: MemoryAccess {
    func bytes(at address: UInt, count: Int) -> Bytes? { Memory.bytes(at: address, count: count) }
    func word(at address: UInt) -> UInt? { Memory.word(at: address) }
}

/// Reads directly: only for objects that cannot go away meanwhile.
struct DirectMemory: MemoryAccess {
    func bytes(at address: UInt, count: Int) -> Bytes? {
        guard let start = UnsafeRawPointer(bitPattern: address) else { return nil }
        return Bytes(base: address, storage: Array(UnsafeRawBufferPointer(start: start, count: count)))
    }

    func word(at address: UInt) -> UInt? {
        UnsafeRawPointer(bitPattern: address)?.loadUnaligned(as: UInt.self)
    }
}

/// Bytes copied out of memory, with the address they came from.
struct Bytes {
    /// Where the first byte was read.
    let base: UInt
    var storage: [UInt8]

    var count: Int { storage.count }

    func load<T>(at offset: Int, as type: T.Type) -> T {
        storage.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: type) }
    }

    /// The word at `offset`, or `nil` past the end.
    func word(at offset: Int) -> UInt? {
        offset >= 0 && offset <= count - 8 ? load(at: offset, as: UInt.self) : nil
    }

    /// Whether `count` bytes from `offset` are inside the copy.
    func contains(_ offset: Int, _ count: Int) -> Bool {
        offset >= 0 && count >= 0 && count <= self.count - offset
    }
}
