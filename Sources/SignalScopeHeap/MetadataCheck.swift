import Synchronization
@_spi(Locking) import SignalScope

/// Tells type metadata from any other word, through the kernel, before the walk reads it
/// directly or hands it to the runtime.
///
/// The check matters: a word a walk reads where it expects a type (an existential's type,
/// a closure's generic binding, an object's class) may be stale, and the runtime trusts
/// what it is given: asked to resolve `Array<T>` with a `T` that is not metadata, it builds
/// metadata from garbage and overwrites its own. So each candidate must have a plausible
/// value witness table, and what its kind promises: a class's header and descriptor, a
/// struct's or enum's descriptor.
enum MetadataCheck {
    /// The metadata at `word`, if it checks out.
    static func metadata(at word: UInt) -> Metadata? {
        if known.withLock({ $0.contains(word) }) { return Metadata(unchecked: word) }
        guard isMetadata(word) else { return nil }
        known.withLock { _ = $0.insert(word) }
        return Metadata(unchecked: word)
    }

    /// Metadata records are never freed, so what checked out once stays valid.
    private static let known = LockedValue<Set<UInt>>([])

    private static func isMetadata(_ word: UInt) -> Bool {
        guard Memory.isPlausibleMetadataAddress(word), let header = Memory.bytes(at: word - 8, count: 24),
            let table = header.word(at: 0), let kindWord = header.word(at: 8), let third = header.word(at: 16),
            hasValueWitnesses(table)
        else { return false }
        switch MetadataKind(word: kindWord) {
        case .class: return isClassMetadata(word)
        case .struct: return isTypeDescriptor(third, kind: 17)
        case .enum, .optional: return isTypeDescriptor(third, kind: 18)
        case .tuple: return third < 1 << 16
        case .function, .existential, .metatype, .existentialMetatype, .extendedExistential, .opaque: return true
        case .heapLocalVariable, .heapGenericLocalVariable, .errorObject, .other: return false
        }
    }

    /// A value witness table: eight functions, then a size no larger than the stride, and
    /// flags with a small alignment.
    private static func hasValueWitnesses(_ table: UInt) -> Bool {
        guard Memory.isPlausibleMetadataAddress(table), let witnesses = Memory.bytes(at: table, count: 88) else { return false }
        let functions = (0..<8).compactMap { witnesses.word(at: 8 * $0) }
        guard functions.allSatisfy({ $0 == 0 || Memory.isPlausibleDescriptorAddress($0 & ~3) }) else { return false }
        let size = witnesses.load(at: 64, as: UInt.self)
        let stride = witnesses.load(at: 72, as: UInt.self)
        let flags = witnesses.load(at: 80, as: UInt32.self)
        return size <= max(stride, 1) && stride < 1 << 28 && flags & 0xFF < 64
    }

    private static func isTypeDescriptor(_ word: UInt, kind: UInt32) -> Bool {
        guard Memory.isPlausibleDescriptorAddress(word), let flags = Memory.bytes(at: word, count: 4)?.load(at: 0, as: UInt32.self)
        else { return false }
        return flags & 0x1F == kind
    }

    /// A class metadata record's header (instance size, alignment, a class type
    /// descriptor).
    static func isClassMetadata(_ isa: UInt) -> Bool {
        guard let header = Memory.bytes(at: isa, count: 48) else { return false }
        let instanceSize = header.load(at: 24, as: UInt32.self)
        let alignMask = header.load(at: 28, as: UInt16.self)
        let description = header.load(at: 40, as: UInt.self)
        guard header.load(at: 0, as: UInt.self) == 0, (16...(1 << 24)).contains(instanceSize),
            alignMask & (alignMask &+ 1) == 0
        else { return false }
        return isTypeDescriptor(description, kind: 16)
    }
}
