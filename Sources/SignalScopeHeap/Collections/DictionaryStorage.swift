/// `Dictionary` storage (`_DictionaryStorage<Key, Value>`): a bitmap of occupied buckets
/// after its stored properties, then the keys and the values, each in an array of buckets.
struct DictionaryStorage: CollectionStorage {
    static func isNamed(_ typeName: String) -> Bool { typeName.hasPrefix("Swift._DictionaryStorage<") }
    static let noun = "a dictionary"
    private let key: (layout: ValueLayout, stride: Int, metadata: Metadata)
    private let value: (layout: ValueLayout, stride: Int)
    private let fields: (scale: Int, keys: Int, values: Int)
    private let bitmap: Int

    init?(metadata: Metadata, typeName: String) {
        guard Self.isNamed(typeName),
            let keyType = CollectionStorages.genericArgument(metadata, 0),
            let valueType = CollectionStorages.genericArgument(metadata, 1)
        else { return nil }
        let offsets = CollectionStorages.fieldOffsets(metadata)
        guard let scale = offsets["_scale"], let keys = offsets["_rawKeys"], let values = offsets["_rawValues"] else {
            return nil
        }
        key = (ValueLayout.of(keyType), max(keyType.valueWitnesses.stride, 1), keyType)
        value = (ValueLayout.of(valueType), max(valueType.valueWitnesses.stride, 1))
        fields = (scale, keys, values)
        bitmap = (metadata.instanceSize + 7) & ~7
    }

    /// The buckets, where the keys and the values start, and where the storage ends, when the
    /// words read make sense for a storage of that many buckets.
    private func geometry(_ object: Bytes) -> (buckets: Int, keys: Int, values: Int, end: Int)? {
        guard object.contains(fields.scale, 1), let keys = object.word(at: fields.keys).flatMap({ CollectionStorages.offset(of: $0, in: object) }),
            let values = object.word(at: fields.values).flatMap({ CollectionStorages.offset(of: $0, in: object) })
        else { return nil }
        let scale = Int(object.load(at: fields.scale, as: Int8.self))
        guard (0..<40).contains(scale) else { return nil }
        let buckets = 1 << scale
        guard let bitmapEnd = CollectionStorages.end(from: bitmap, count: (buckets + 63) / 64, stride: 8),
            let keysEnd = CollectionStorages.end(from: keys, count: buckets, stride: key.stride),
            let valuesEnd = CollectionStorages.end(from: values, count: buckets, stride: value.stride)
        else { return nil }
        return (buckets, keys, values, max(bitmapEnd, keysEnd, valuesEnd))
    }

    var holdsReferences: Bool { !(key.layout.isEmpty && value.layout.isEmpty) }

    func extent(of header: Bytes) -> Int? { geometry(header)?.end }

    func elements(in object: Bytes) -> [StoredElement] {
        guard !(key.layout.isEmpty && value.layout.isEmpty), let (buckets, keys, values, _) = geometry(object) else { return [] }
        var elements: [StoredElement] = []
        for bucket in CollectionStorages.occupiedBuckets(in: object, bitmapAt: bitmap, bucketCount: buckets) {
            let keyOffset = keys + bucket * key.stride
            if !key.layout.isEmpty { elements.append(StoredElement(offset: keyOffset, label: .key, layout: key.layout)) }
            if !value.layout.isEmpty {
                elements.append(StoredElement(
                    offset: values + bucket * value.stride, label: .value(forKey: KeyDescription.of(object, at: keyOffset, key.metadata)),
                    layout: value.layout))
            }
        }
        return elements
    }
}

/// A dictionary key as a path shows it, read from the storage's bytes without touching
/// anything they point to: small strings (kept inline) and integers.
enum KeyDescription {
    static func of(_ object: Bytes, at offset: Int, _ type: Metadata) -> String? {
        switch type {
        case Metadata(String.self):
            // A small string, whose two words are the whole value: the top nibble of the second
            // says so (immortal and small, ASCII or not), the next its length; its UTF-8 bytes
            // come first. Decoded from the bytes, never taken as a `String`: the words may be
            // anything, and a string made of them traps.
            guard let first = object.word(at: offset), let second = object.word(at: offset + 8),
                second >> 60 == 0xE || second >> 60 == 0xA
            else { return nil }
            let length = Int((second >> 56) & 0xF)
            let utf8 = withUnsafeBytes(of: (first.littleEndian, second.littleEndian)) { Array($0.prefix(length)) }
            return "\"\(String(decoding: utf8, as: UTF8.self))\""
        case Metadata(Int.self): return object.contains(offset, 8) ? "\(object.load(at: offset, as: Int.self))" : nil
        case Metadata(UInt.self): return object.contains(offset, 8) ? "\(object.load(at: offset, as: UInt.self))" : nil
        case Metadata(Int32.self): return object.contains(offset, 4) ? "\(object.load(at: offset, as: Int32.self))" : nil
        default: return nil
        }
    }
}
