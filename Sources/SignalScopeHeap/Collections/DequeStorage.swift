/// swift-collections' `Deque` storage (`_DequeBuffer<Element>`, a `ManagedBuffer`): a header
/// with the capacity, the count and the first slot, then a ring of slots. The runtime keeps
/// replayed values and queued work in deques.
struct DequeStorage: CollectionStorage {
    static func isNamed(_ typeName: String) -> Bool { typeName.hasPrefix("DequeModule._DequeBuffer<") }
    static let noun = "a deque"
    private let element: ValueLayout
    private let stride: Int
    private let header: Int
    private let firstSlot: Int

    init?(metadata: Metadata, typeName: String) {
        guard Self.isNamed(typeName), let element = CollectionStorages.genericArgument(metadata, 0),
            let header = CollectionStorages.fieldOffsets(metadata)["header"]
        else { return nil }
        let witnesses = element.valueWitnesses
        self.element = ValueLayout.of(element)
        stride = max(witnesses.stride, 1)
        self.header = header
        // The header holds three integers: capacity, count, start slot.
        firstSlot = (header + 24 + witnesses.alignment - 1) & ~(witnesses.alignment - 1)
    }

    private func ring(_ object: Bytes) -> (capacity: Int, count: Int, start: Int)? {
        guard let capacity = object.word(at: header).map(Int.init(bitPattern:)),
            let count = object.word(at: header + 8).map(Int.init(bitPattern:)),
            let start = object.word(at: header + 16).map(Int.init(bitPattern:)),
            capacity >= 0, (0...capacity).contains(count), capacity == 0 || (0..<capacity).contains(start)
        else { return nil }
        return (capacity, count, start)
    }

    var holdsReferences: Bool { !element.isEmpty }

    func extent(of header: Bytes) -> Int? {
        guard let (capacity, _, _) = ring(header) else { return nil }
        return CollectionStorages.end(from: firstSlot, count: capacity, stride: stride)
    }

    func elements(in object: Bytes) -> [StoredElement] {
        guard !element.isEmpty, let (capacity, count, start) = ring(object),
            let end = CollectionStorages.end(from: firstSlot, count: capacity, stride: stride), end <= object.count
        else { return [] }
        return (0..<count).map { index in
            let slot = (start + index) % capacity
            return StoredElement(offset: firstSlot + slot * stride, label: .element(index), layout: element)
        }
    }
}
