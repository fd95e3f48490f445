/// A key path (`\Screen.title`): an instance of a `KeyPath` class whose components are
/// allocated after its stored properties. A key path made only of stored properties, optional
/// chaining and the like holds no references, which the buffer's header says (its "trivial"
/// flag); one with a computed component whose arguments need destroying (a subscript with an
/// object argument) may hold references the walk cannot place: its components are scanned
/// conservatively and the object is marked as not read exactly, never as holding nothing.
struct KeyPathStorage: CollectionStorage {
    /// `KeyPath`, `WritableKeyPath`, `ReferenceWritableKeyPath`, `PartialKeyPath`, ... (the
    /// walk itself recognises the storage by its class).
    static func isNamed(_ typeName: String) -> Bool { typeName.hasPrefix("Swift.") && typeName.contains("KeyPath") }
    static let noun = "a key path"
    /// Where the components' buffer header (a 32-bit word) is.
    private let header: Int

    init?(metadata: Metadata, typeName: String) {
        var current: Metadata? = metadata
        while let level = current, level != Self.anyKeyPath { current = level.superclass }
        // The tail-allocated buffer starts right after AnyKeyPath's one stored property.
        guard current != nil, let last = CollectionStorages.fieldOffsets(metadata)["_kvcKeyPathStringPtr"] else { return nil }
        header = last + 8
    }

    private static let anyKeyPath = Metadata(AnyKeyPath.self)
    private static let trivial: UInt32 = 0x8000_0000
    private static let sizeMask: UInt32 = 0x00FF_FFFF

    var holdsReferences: Bool { true }
    var headerSize: Int { header + 4 }

    /// The header, then the components from the next word on, as many bytes as it says.
    private func components(_ object: Bytes) -> (trivial: Bool, bytes: Range<Int>)? {
        guard object.contains(header, 4) else { return nil }
        let word = object.load(at: header, as: UInt32.self)
        let start = (header + 4 + 7) & ~7
        return (word & Self.trivial != 0, start..<(start + Int(word & Self.sizeMask)))
    }

    func extent(of header: Bytes) -> Int? { components(header)?.bytes.upperBound }

    func elements(in object: Bytes) -> [StoredElement] { [] }

    func unreadBytes(in object: Bytes) -> Range<Int>? {
        guard let (trivial, bytes) = components(object) else { return 0..<0 }
        return trivial ? nil : bytes
    }
}
