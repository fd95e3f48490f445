import CTracingSupport

/// A strong reference found in a heap object.
package struct FoundReference {
    /// The object referred to.
    package let target: UInt
    /// What the reference is to its holder.
    package let kind: HeapReferenceKind
    /// Where inside that it is: a stored property's path (`state.owner`), an enum case
    /// (`payment`), a tuple element (`0`); empty for the value itself.
    package let path: String
    /// For a closure's context: the closure's function pointer.
    package let function: UInt?
    /// Where the word is in the holder, when it is stored there as such (not inside an
    /// enum payload the walk projected, or an existential's box).
    package let offset: Int?
    /// `false` for a word a conservative scan found: it may be stale.
    package let isExact: Bool
    /// A weak reference: it keeps nothing alive, and is reported only to say who refers
    /// to an object (a `[weak self]` observer's `self`).
    package var isWeak = false
}

/// What a reference is to the object that holds it: the walk finds it, the recorder writes
/// it and a trace reads it back as this one type (`TraceHeap.ReferenceKind`).
public enum HeapReferenceKind: Sendable, Hashable, CustomStringConvertible {
    /// A class instance's stored property (a reference's path names it).
    case storedProperty
    /// A value a closure captured (or a captured `var`'s box holds).
    case capture
    /// The element at this index of an array, or the `n`th of a set or deque.
    case element(Int)
    /// A dictionary's key.
    case key
    /// A dictionary's value, with its key when it is a small string or an integer.
    case value(forKey: String?)
    /// A box's value (an existential's, an error's, an indirect enum case's).
    case boxedValue

    /// Its name as the exports write it: `storedProperty`, `capture`, `element(2)`,
    /// `key`, `value(forKey: "id")` (`value` when the key is not known), `boxedValue`.
    public var description: String {
        switch self {
        case .storedProperty: "storedProperty"
        case .capture: "capture"
        case .element(let index): "element(\(index))"
        case .key: "key"
        case .value(let key?): "value(forKey: \"\(key)\")"
        case .value(nil): "value"
        case .boxedValue: "boxedValue"
        }
    }
}

/// Reads the strong references out of an object's bytes, following its layout: the part of
/// the heap walk that knows how values hold references.
struct ReferenceReader {
    private(set) var found: [FoundReference] = []
    /// Where weak references sit in the object (to learn which objects a closure refers
    /// to without keeping them: see ``HeapWalker``).
    private(set) var weakReferences: [WeakSlot] = []
    /// Whether some part of the object could not be decoded.
    private(set) var isComplete = true

    /// Reads the value at `offset` of `bytes`, whose type has `layout`.
    /// - Parameter inPlace: Whether `bytes` is a copy of the object itself (so offsets in
    ///   it are offsets in the object), rather than a projected copy of a value.
    mutating func read(
        _ layout: ValueLayout, in bytes: Bytes, at offset: Int, kind: HeapReferenceKind, path: String, inPlace: Bool
    ) {
        switch layout {
        case .none: return
        case .unknown, .hidden: isComplete = false
        case .strong:
            guard let word = bytes.word(at: offset) else { return markTruncated() }
            reference(word, kind, path, offset: inPlace ? offset : nil)
        case .bridged:
            // A bridge object keeps flags in its spare bits (the top nibble and the low bits).
            guard let word = bytes.word(at: offset) else { return markTruncated() }
            reference(word & 0x0FFF_FFFF_FFFF_FFF8, kind, path, offset: inPlace ? offset : nil)
        case .function:
            guard let function = bytes.word(at: offset), let context = bytes.word(at: offset + 8) else { return markTruncated() }
            if function != 0 { reference(context, kind, path, function: function, offset: inPlace ? offset + 8 : nil) }
        case .weak(let referent):
            if inPlace, bytes.word(at: offset).map({ $0 != 0 }) == true {
                weakReferences.append(WeakSlot(address: bytes.base + UInt(offset), referent: referent))
            }
        case .members(let members):
            for member in members {
                read(member.layout, in: bytes, at: offset + member.offset, kind: kind, path: join(path, member.name), inPlace: inPlace)
            }
        case .enumeration(let layout):
            readEnum(layout, in: bytes, at: offset, kind: kind, path: path)
        case .existential(let representation):
            readExistential(representation, in: bytes, at: offset, kind: kind, path: path, inPlace: inPlace)
        }
    }

    /// Scans words conservatively: any word that checks out as an object counts once.
    mutating func scanConservatively(_ bytes: Bytes, from start: Int, kind: HeapReferenceKind) {
        scanConservatively(bytes, in: start..<bytes.count, kind: kind, path: "")
    }

    /// Notes every word in `range` that could be an object's address as a reference that
    /// may be stale (not exact): what a value the walk cannot decode may hold.
    mutating func scanConservatively(_ bytes: Bytes, in range: Range<Int>, kind: HeapReferenceKind, path: String) {
        var seen: Set<UInt> = []
        var offset = (range.lowerBound + 7) & ~7
        while offset + 8 <= range.upperBound, let word = bytes.word(at: offset) {
            if Memory.isPlausibleObjectAddress(word), seen.insert(word).inserted {
                found.append(FoundReference(target: word, kind: kind, path: path, function: nil, offset: offset, isExact: false))
            }
            offset += 8
        }
    }

    private mutating func markTruncated() {
        isComplete = false
    }

    private mutating func reference(_ word: UInt, _ kind: HeapReferenceKind, _ path: String, function: UInt? = nil, offset: Int?) {
        guard Memory.isPlausibleObjectAddress(word) else { return }
        found.append(FoundReference(target: word, kind: kind, path: path, function: function, offset: offset, isExact: true))
    }

    /// Asks the enum's value witnesses which case a bitwise copy of the value is, and to
    /// strip the case from it (tags may sit in the payload's spare bits), then reads the
    /// payload. The copy is never destroyed, so nothing is retained or released.
    private mutating func readEnum(_ layout: EnumLayout, in bytes: Bytes, at offset: Int, kind: HeapReferenceKind, path: String) {
        guard bytes.contains(offset, layout.size) else { return markTruncated() }
        var value = Bytes(base: 0, storage: Array(bytes.storage[offset..<(offset + layout.size)]))
        // Value witnesses may read a little past a value's size (whole words): pad.
        value.storage += [UInt8](repeating: 0, count: 16)
        let metadata = UnsafeRawPointer(bitPattern: layout.metadata.address)!
        let tag = value.storage.withUnsafeMutableBytes { buffer -> Int in
            let tag = Int(signalscope_enum_tag(buffer.baseAddress!, metadata))
            if tag < layout.payloads.count { signalscope_project_enum_payload(buffer.baseAddress!, metadata) }
            return tag
        }
        guard tag < layout.payloads.count else { return }
        let payload = layout.payloads[tag]
        read(payload.layout, in: value, at: 0, kind: kind, path: join(path, payload.name), inPlace: false)
    }

    private mutating func readExistential(
        _ representation: ExistentialRepresentation, in bytes: Bytes, at offset: Int, kind: HeapReferenceKind, path: String,
        inPlace: Bool
    ) {
        switch representation {
        case .classBound, .error:
            read(.strong, in: bytes, at: offset, kind: kind, path: path, inPlace: inPlace)
        case .opaque:
            // Three words of buffer, then the dynamic type.
            guard let typeWord = bytes.word(at: offset + 24) else { return markTruncated() }
            guard typeWord != 0 else { return }
            guard let type = ObjectReader.checkedType(typeWord) else { return markTruncated() }
            if type.valueWitnesses.isStoredOutOfLine {
                read(.strong, in: bytes, at: offset, kind: kind, path: path, inPlace: inPlace)
            } else {
                read(ValueLayout.of(type), in: bytes, at: offset, kind: kind, path: path, inPlace: inPlace)
            }
        }
    }

    private func join(_ path: String, _ component: String) -> String {
        path.isEmpty || component.isEmpty ? path + component : path + "." + component
    }
}

/// Where an object keeps a weak reference, and the class it refers to, when known.
struct WeakSlot {
    let address: UInt
    let referent: String?
}
