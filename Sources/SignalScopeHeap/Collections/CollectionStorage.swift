/// A class whose elements are allocated after its stored properties, where no field
/// descriptor describes them: a collection's storage. One conforming type per kind of
/// storage, each in its own file, listed in ``CollectionStorages/all``.
protocol CollectionStorage: Sendable {
    /// Whether a storage class named `typeName` (as the runtime names it) is this kind.
    static func isNamed(_ typeName: String) -> Bool
    /// What a path calls the collection (`an array`).
    static var noun: String { get }

    /// The storage of `metadata`'s type, if it is this kind (`typeName` is its name).
    init?(metadata: Metadata, typeName: String)

    /// How many bytes of an object to read to see every element, given its first
    /// `instanceSize` bytes (or ``headerSize``, if larger); `nil` if they do not make sense.
    func extent(of header: Bytes) -> Int?

    /// How many bytes ``extent(of:)`` needs, when its header lies past the stored
    /// properties (0: within them).
    var headerSize: Int { get }

    /// The elements in an object's bytes (read up to its extent) that may hold references.
    func elements(in object: Bytes) -> [StoredElement]

    /// Whether its elements may hold references at all.
    var holdsReferences: Bool { get }

    /// The bytes that may hold references ``elements(in:)`` does not name (`nil`: there are
    /// none): scanned conservatively, and the object is marked as not read exactly.
    func unreadBytes(in object: Bytes) -> Range<Int>?
}

extension CollectionStorage {
    func unreadBytes(in object: Bytes) -> Range<Int>? { nil }
    var headerSize: Int { 0 }
}

/// One element of a collection's storage.
struct StoredElement {
    let offset: Int
    /// What it is to its collection: an element, a key or a value.
    let label: HeapReferenceKind
    let layout: ValueLayout
}

package enum CollectionStorages {
    /// What a finding's path calls a collection whose storage class is `typeName`: `an
    /// array`, `a dictionary`, `a set`, `a deque`, `a key path`; `nil` for other storage.
    package static func noun(ofStorage typeName: String) -> String? {
        all.first { $0.isNamed(typeName) }?.noun
    }

    /// Every kind of storage the walk can see into.
    static let all: [any CollectionStorage.Type] = [
        ArrayStorage.self, DictionaryStorage.self, SetStorage.self, DequeStorage.self, KeyPathStorage.self,
    ]

    static func storage(for metadata: Metadata, typeName: String) -> (any CollectionStorage)? {
        for kind in all {
            if let storage = kind.init(metadata: metadata, typeName: typeName) { return storage }
        }
        return nil
    }

    /// The offsets of a class's stored properties by name, superclasses' included.
    static func fieldOffsets(_ metadata: Metadata) -> [String: Int] {
        var offsets: [String: Int] = [:]
        var current: Metadata? = metadata
        while let level = current, let descriptor = level.descriptor, descriptor.kind == .class {
            for (index, field) in (descriptor.fields ?? []).enumerated() {
                if let offset = level.fieldOffset(index) { offsets[field.name] = offset }
            }
            current = level.superclass
        }
        return offsets
    }

    /// The `index`th generic argument of a generic class's metadata.
    static func genericArgument(_ metadata: Metadata, _ index: Int) -> Metadata? {
        guard let arguments = metadata.genericArguments else { return nil }
        return Metadata(unchecked: Raw.word(arguments + UInt(8 * index)))
    }

    /// The occupied buckets of a hashed collection: the bits set in its bitmap, which is
    /// allocated right after its stored properties.
    static func occupiedBuckets(in object: Bytes, bitmapAt start: Int, bucketCount: Int) -> [Int] {
        var buckets: [Int] = []
        for word in 0..<((bucketCount + 63) / 64) {
            guard var bits = object.word(at: start + 8 * word) else { break }
            while bits != 0 {
                let bucket = 64 * word + bits.trailingZeroBitCount
                if bucket < bucketCount { buckets.append(bucket) }
                bits &= bits - 1
            }
        }
        return buckets
    }

    /// No storage is larger than this; a larger extent means the header was misread.
    static let maximumExtent = 1 << 30

    /// Where `count` elements of `stride` bytes from `start` end, when storage could be that
    /// large; `nil` otherwise. Counts and offsets are read from a block the allocation table
    /// names, which may have been freed and reused for anything since, so they can be any
    /// word: computed naively, their product overflows and traps in the walk.
    static func end(from start: Int, count: Int, stride: Int) -> Int? {
        guard start >= 0, count >= 0, stride > 0, count <= (maximumExtent - start) / stride else { return nil }
        return start + count * stride
    }

    /// The offset in `object` of `pointer`, a pointer its storage keeps to its own tail,
    /// when it points within any storage's extent.
    static func offset(of pointer: UInt, in object: Bytes) -> Int? {
        guard pointer >= object.base, pointer - object.base <= UInt(maximumExtent) else { return nil }
        return Int(pointer - object.base)
    }
}
