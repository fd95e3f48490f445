import CTracingSupport

/// Reads one heap object's strong references, by what its metadata says it is: the step the
/// heap walk and the capture scanner share.
enum ObjectReader {
    /// What reading an object found.
    struct Contents {
        var references: [FoundReference]
        /// Where the object keeps weak references.
        var weakReferences: [WeakSlot]
        /// Whether every strong reference it holds was decoded exactly.
        var isComplete: Bool
    }

    /// Reads the object at `address` (whose first word is `isa`, already read); `nil` if
    /// its bytes cannot be read.
    static func read(_ address: UInt, isa: UInt, memory: some MemoryAccess) -> Contents? {
        var reader = ReferenceReader()
        var complete = true
        switch HeapObjectKind.of(isa: isa) {
        case .notAnObject: return nil
        case .instance(let layout):
            var size = layout.instanceSize
            if let storage = layout.storage {
                guard let header = memory.bytes(at: address, count: max(size, storage.headerSize)),
                    let extent = storage.extent(of: header)
                else {
                    return Contents(references: [], weakReferences: [], isComplete: false)
                }
                size = max(size, extent)
            }
            guard let bytes = memory.bytes(at: address, count: size) else { return nil }
            for member in layout.members {
                reader.read(member.layout, in: bytes, at: member.offset, kind: .storedProperty, path: member.name, inPlace: true)
            }
            for element in layout.storage?.elements(in: bytes) ?? [] {
                reader.read(element.layout, in: bytes, at: element.offset, kind: element.label, path: "", inPlace: true)
            }
            for (name, range) in layout.unread {
                reader.scanConservatively(bytes, in: range, kind: .storedProperty, path: name)
            }
            complete = layout.isComplete
            if let range = layout.storage?.unreadBytes(in: bytes) {
                reader.scanConservatively(bytes, in: range, kind: .element(0), path: "")
                complete = false
            }
        case .context(let description):
            let layout = description.layout { offset in memory.word(at: address + UInt(offset)) }
            var size = layout.exactSize
            if layout.conservativeFrom != nil {
                // With no layout to go by, the rest of the heap block (the metadata checked out
                // as a closure context's, so the address is the start of one).
                let block = signalscope_heap_block_size(UnsafeMutableRawPointer(bitPattern: address)!)
                size = max(size, min(block, 4096))
            }
            guard let bytes = memory.bytes(at: address, count: size) else { return nil }
            for member in layout.members {
                reader.read(member.layout, in: bytes, at: member.offset, kind: .capture, path: "", inPlace: true)
            }
            if let start = layout.conservativeFrom {
                reader.scanConservatively(bytes, from: start, kind: .capture)
                complete = false
            }
        case .genericBox(let boxed):
            guard readBoxedValue(address, type: boxed, at: 16, into: &reader, memory: memory) else { return nil }
        case .errorBox:
            // The value's type and its Error conformance, then the value.
            guard let typeWord = memory.word(at: address + 16), let type = checkedType(typeWord) else {
                return Contents(references: [], weakReferences: [], isComplete: false)
            }
            guard readBoxedValue(address, type: type, at: 32, into: &reader, memory: memory) else { return nil }
        }
        return Contents(references: reader.found, weakReferences: reader.weakReferences, isComplete: complete && reader.isComplete)
    }

    private static func readBoxedValue(
        _ address: UInt, type: Metadata, at header: Int, into reader: inout ReferenceReader, memory: some MemoryAccess
    ) -> Bool {
        let witnesses = type.valueWitnesses
        let start = (header + witnesses.alignment - 1) & ~(witnesses.alignment - 1)
        guard let bytes = memory.bytes(at: address, count: start + witnesses.size) else { return false }
        reader.read(ValueLayout.of(type), in: bytes, at: start, kind: .boxedValue, path: "", inPlace: true)
        return true
    }

    /// A type metadata word read from an object, checked before it is used.
    static func checkedType(_ word: UInt) -> Metadata? {
        MetadataCheck.metadata(at: word)
    }
}
