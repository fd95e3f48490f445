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
        header.word(at: countOffset).flatMap { CollectionStorages.end(from: firstElement, count: Int(bitPattern: $0), stride: stride) }
    }

    func elements(in object: Bytes) -> [StoredElement] {
        guard !element.isEmpty, let count = object.word(at: countOffset).map(Int.init(bitPattern:)), count >= 0 else { return [] }
        // As many as the bytes read hold: the count was read from them, and may be anything.
        let held = min(count, max(0, object.count - firstElement) / stride)
        return (0..<held).map { StoredElement(offset: firstElement + $0 * stride, label: .element($0), layout: element) }
    }
}
