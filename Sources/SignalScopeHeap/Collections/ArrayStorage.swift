/// `Array` and `ContiguousArray` storage (`_ContiguousArrayStorage<Element>`): a count,
/// then the elements.
struct ArrayStorage: CollectionStorage {
    static func isNamed(_ typeName: String) -> Bool { typeName.hasPrefix("Swift._ContiguousArrayStorage<") }
    static let noun = "an array"
    private let element: ValueLayout
    private let stride: Int
    private let firstElement: Int
    private let countOffset: Int

    init?(metadata: Metadata, typeName: String) {
        guard Self.isNamed(typeName),
            let element = CollectionStorages.genericArgument(metadata, 0),
            let body = CollectionStorages.fieldOffsets(metadata)["countAndCapacity"]
        else { return nil }
        let witnesses = element.valueWitnesses
        self.element = ValueLayout.of(element)
        stride = max(witnesses.stride, 1)
        countOffset = body
        // The elements follow the count and capacity, at their own alignment.
        firstElement = (body + 16 + witnesses.alignment - 1) & ~(witnesses.alignment - 1)
    }

    var holdsReferences: Bool { !element.isEmpty }

    func extent(of header: Bytes) -> Int? {
        guard let count = header.word(at: countOffset).map(Int.init(bitPattern:)), count >= 0 else { return nil }
        let extent = firstElement + count * stride
        return extent <= CollectionStorages.maximumExtent ? extent : nil
    }

    func elements(in object: Bytes) -> [StoredElement] {
        guard !element.isEmpty, let count = object.word(at: countOffset).map(Int.init(bitPattern:)) else { return [] }
        return (0..<count).compactMap { index in
            let offset = firstElement + index * stride
            return object.contains(offset, stride) ? StoredElement(offset: offset, label: .element(index), layout: element) : nil
        }
    }
}
