/// `Set` storage (`_SetStorage<Element>`): a bitmap of occupied buckets after its stored
/// properties, then the elements in an array of buckets.
struct SetStorage: CollectionStorage {
    static func isNamed(_ typeName: String) -> Bool { typeName.hasPrefix("Swift._SetStorage<") }
    static let noun = "a set"
    private let element: ValueLayout
    private let stride: Int
    private let fields: (scale: Int, elements: Int)
    private let bitmap: Int

    init?(metadata: Metadata, typeName: String) {
        guard Self.isNamed(typeName), let element = CollectionStorages.genericArgument(metadata, 0) else {
            return nil
        }
        let offsets = CollectionStorages.fieldOffsets(metadata)
        guard let scale = offsets["_scale"], let elements = offsets["_rawElements"] else { return nil }
        self.element = ValueLayout.of(element)
        stride = max(element.valueWitnesses.stride, 1)
        fields = (scale, elements)
        bitmap = (metadata.instanceSize + 7) & ~7
    }

    /// The buckets, where the elements start, and where the storage ends, when the words read
    /// make sense for a storage of that many buckets.
    private func geometry(_ object: Bytes) -> (buckets: Int, elements: Int, end: Int)? {
        guard object.contains(fields.scale, 1),
            let elements = object.word(at: fields.elements).flatMap({ CollectionStorages.offset(of: $0, in: object) })
        else { return nil }
        let scale = Int(object.load(at: fields.scale, as: Int8.self))
        guard (0..<40).contains(scale) else { return nil }
        let buckets = 1 << scale
        guard let bitmapEnd = CollectionStorages.end(from: bitmap, count: (buckets + 63) / 64, stride: 8),
            let elementsEnd = CollectionStorages.end(from: elements, count: buckets, stride: stride)
        else { return nil }
        return (buckets, elements, max(bitmapEnd, elementsEnd))
    }

    var holdsReferences: Bool { !element.isEmpty }

    func extent(of header: Bytes) -> Int? { geometry(header)?.end }

    func elements(in object: Bytes) -> [StoredElement] {
        guard !element.isEmpty, let (buckets, elements, _) = geometry(object) else { return [] }
        return CollectionStorages.occupiedBuckets(in: object, bitmapAt: bitmap, bucketCount: buckets).enumerated().map {
            StoredElement(offset: elements + $1 * stride, label: .element($0), layout: element)
        }
    }
}
