import CTracingSupport

// The Swift runtime's metadata records, as it lays them out on 64-bit Linux (no Objective-C
// interop). The layouts are the ones the Swift ABI documents (docs/ABI/TypeMetadata.rst and
// include/swift/ABI/Metadata.h in the Swift repository); HeapWalkerTests checks each one
// the walker reads against real values, in debug and release builds.

/// What kind of type a metadata record describes (`MetadataKind` in the runtime).
enum MetadataKind: Equatable, Sendable {
    case `class`, `struct`, `enum`, optional, opaque, tuple, function, existential
    case metatype, existentialMetatype, extendedExistential
    /// A closure context, or a box the compiler made for a captured `var` (both are
    /// described by a capture descriptor).
    case heapLocalVariable
    /// A box made at run time for a value of any type (`swift_allocBox`).
    case heapGenericLocalVariable
    /// The box of an `any Error` value.
    case errorObject
    /// Anything else: a task, a job, a foreign type.
    case other

    init(word: UInt) {
        switch word {
        case 0: self = .class
        case 0x200: self = .struct
        case 0x201: self = .enum
        case 0x202: self = .optional
        case 0x300: self = .opaque
        case 0x301: self = .tuple
        case 0x302: self = .function
        case 0x303: self = .existential
        case 0x304: self = .metatype
        case 0x306: self = .existentialMetatype
        case 0x307: self = .extendedExistential
        case 0x400: self = .heapLocalVariable
        case 0x500: self = .heapGenericLocalVariable
        case 0x501: self = .errorObject
        default: self = .other
        }
    }
}

/// A type metadata record. Only made from `Any.Type` values, or from words the heap walk
/// validated first (see ``HeapObjectKind``), so reading it directly is safe.
struct Metadata: Hashable, Sendable {
    let address: UInt

    init(_ type: Any.Type) {
        address = unsafeBitCast(type, to: UInt.self)
    }

    init(unchecked address: UInt) {
        self.address = address
    }

    var type: Any.Type { unsafeBitCast(address, to: Any.Type.self) }

    var kind: MetadataKind { MetadataKind(word: Raw.word(address)) }

    /// The type's name as the runtime spells it (`Module.Outer.Name<Argument>`).
    var typeName: String { _typeName(type, qualified: true) }

    var valueWitnesses: ValueWitnesses { ValueWitnesses(table: Raw.word(address - 8)) }

    /// The nominal type descriptor of a class, struct or enum.
    var descriptor: TypeDescriptor? {
        let word = kind == .class ? Raw.word(address + 40) : Raw.word(address + 8)
        return word == 0 ? nil : TypeDescriptor(address: word)
    }

    /// Where the generic arguments of a generic nominal type's metadata start, for
    /// resolving the mangled names of its fields.
    var genericArguments: UInt? {
        guard let descriptor, descriptor.isGeneric else { return nil }
        switch kind {
        case .struct, .enum, .optional: return address + 16
        case .class:
            guard let offset = descriptor.classGenericArgumentOffset else { return nil }
            return address + UInt(8 * offset)
        default: return nil
        }
    }

    /// A class's superclass metadata.
    var superclass: Metadata? {
        let word = Raw.word(address + 8)
        return word == 0 ? nil : Metadata(unchecked: word)
    }

    /// The size of a class's instances.
    var instanceSize: Int { Int(Raw.u32(address + 24)) }

    /// Where a class instance's, or a struct value's, `index`th stored property starts.
    func fieldOffset(_ index: Int) -> Int? {
        guard let descriptor, let vector = descriptor.fieldOffsetVectorOffset else { return nil }
        let start = address + UInt(8 * vector)
        return kind == .class ? Int(Raw.word(start + UInt(8 * index))) : Int(Raw.u32(start + UInt(4 * index)))
    }

    /// A tuple's elements: their types and offsets.
    var tupleElements: [(type: Metadata, offset: Int)] {
        let count = Int(Raw.u32(address + 8))
        return (0..<count).map { index in
            let element = address + 24 + UInt(16 * index)
            // Each element: its type, then its offset (32 bits, padded to a word).
            return (Metadata(unchecked: Raw.word(element)), Int(Raw.u32(element + 8)))
        }
    }

    /// Whether a function type is thick (a function pointer and a context), rather than
    /// thin or a C function pointer.
    var isThickFunction: Bool { (Raw.u32(address + 8) >> 16) & 0xFF == 0 }

    /// How an existential type stores its value.
    var existentialRepresentation: ExistentialRepresentation {
        let flags = Raw.u32(address + 8)
        if (flags >> 24) & 0x3F == 1 { return .error }
        return flags & 0x8000_0000 == 0 ? .classBound : .opaque
    }

    /// How a constrained existential (`any Collection<Int>`, `any Source<Item>`: extended
    /// existential metadata) stores its value, from its shape's special kind: none (the
    /// opaque container), a class reference, a metatype (no reference; `nil`), or a layout of
    /// its own, which this walk does not read (`nil` too, and ``isExplicitLayout``).
    var extendedExistentialRepresentation: (representation: ExistentialRepresentation?, isExplicitLayout: Bool) {
        // The metadata's second word points to its shape, whose first word holds its flags.
        let shape = Raw.word(address + 8)
        guard shape != 0 else { return (nil, true) }
        switch Raw.u32(shape) & 0xFF {
        case 0: return (.opaque, false)
        case 1: return (.classBound, false)
        case 2: return (nil, false)
        default: return (nil, true)
        }
    }
}

/// How an existential (`any P`) stores its value.
enum ExistentialRepresentation: Sendable {
    /// A three-word buffer, then the value's type: the value inline, or in a box.
    case opaque
    /// One strong reference (then witness tables).
    case classBound
    /// One strong reference to an error box.
    case error
}

/// A type's value witness table: its size, alignment and a few flags.
struct ValueWitnesses {
    let table: UInt

    var size: Int { Int(Raw.word(table + 64)) }
    var stride: Int { Int(Raw.word(table + 72)) }
    private var flags: UInt32 { Raw.u32(table + 80) }
    var alignment: Int { Int(flags & 0xFF) + 1 }
    /// Plain old data: copying it retains nothing, so it holds no references.
    var isPOD: Bool { flags & 0x0001_0000 == 0 }
    /// Too large, or not bitwise takable, to sit inline in an existential's buffer.
    var isStoredOutOfLine: Bool { flags & 0x0002_0000 != 0 }
}

/// A nominal type's context descriptor.
struct TypeDescriptor: Hashable {
    let address: UInt

    enum Kind { case `class`, `struct`, `enum`, other }

    private var flags: UInt32 { Raw.u32(address) }

    var kind: Kind {
        switch flags & 0x1F {
        case 16: .class
        case 17: .struct
        case 18: .enum
        default: .other
        }
    }

    var isGeneric: Bool { flags & 0x80 != 0 }

    var name: String { Raw.relative(address + 8).map(Raw.string) ?? "?" }

    /// Its stored properties, or its enum cases, with their mangled types; `nil` when the
    /// compiler emitted no reflection metadata for it.
    var fields: [FieldRecord]? {
        guard let descriptor = Raw.relative(address + 16) else { return nil }
        let recordSize = UInt(Raw.u16(descriptor + 10))
        let count = Int(Raw.u32(descriptor + 12))
        return (0..<count).map { index in
            let record = descriptor + 16 + UInt(index) * recordSize
            return FieldRecord(
                flags: Raw.u32(record), mangledType: Raw.relative(record + 4),
                name: Raw.relative(record + 8).map(Raw.string) ?? "")
        }
    }

    /// In words from the metadata's address point: where the field offsets start.
    var fieldOffsetVectorOffset: Int? {
        switch kind {
        case .class:
            let offset = Int(Raw.u32(address + 40))
            // Past a resilient superclass, the offset counts from the immediate members.
            guard hasResilientSuperclass else { return offset }
            return immediateMembersOffset.map { $0 + offset }
        case .struct: return Int(Raw.u32(address + 24))
        case .enum, .other: return nil
        }
    }

    /// In words: where a class's generic arguments start in its metadata.
    var classGenericArgumentOffset: Int? {
        kind == .class ? immediateMembersOffset : nil
    }

    private var hasResilientSuperclass: Bool { (flags >> 16) & (1 << 13) != 0 }

    /// In words: where a class's own members (generic arguments first) start. A class
    /// whose superclass is resilient learns it at run time, from bounds the runtime stores.
    private var immediateMembersOffset: Int? {
        guard hasResilientSuperclass else { return Int(Raw.u32(address + 28)) - Int(Raw.u32(address + 32)) }
        guard let bounds = Raw.relative(address + 24) else { return nil }
        return Int(bitPattern: Raw.word(bounds)) / 8
    }

    /// How many of an enum's cases carry a payload.
    var payloadCaseCount: Int { Int(Raw.u32(address + 20) & 0x00FF_FFFF) }
}

/// A stored property or an enum case of a nominal type.
struct FieldRecord {
    let flags: UInt32
    /// Its mangled type (for an enum case, its payload's), `nil` for a case without payload.
    let mangledType: UInt?
    let name: String

    /// An `indirect` enum case: its payload is in a box.
    var isIndirect: Bool { flags & 1 != 0 }
}

/// Direct reads of runtime records that are known to be valid.
enum Raw {
    static func word(_ address: UInt) -> UInt {
        UnsafeRawPointer(bitPattern: address)!.loadUnaligned(as: UInt.self)
    }

    static func u32(_ address: UInt) -> UInt32 {
        UnsafeRawPointer(bitPattern: address)!.loadUnaligned(as: UInt32.self)
    }

    static func u16(_ address: UInt) -> UInt16 {
        UnsafeRawPointer(bitPattern: address)!.loadUnaligned(as: UInt16.self)
    }

    static func i32(_ address: UInt) -> Int32 {
        UnsafeRawPointer(bitPattern: address)!.loadUnaligned(as: Int32.self)
    }

    /// A relative pointer's target: the field's address plus its signed 32-bit offset.
    static func relative(_ field: UInt) -> UInt? {
        let offset = i32(field)
        return offset == 0 ? nil : UInt(bitPattern: Int(bitPattern: field) &+ Int(offset))
    }

    static func string(_ address: UInt) -> String {
        String(cString: UnsafePointer<CChar>(bitPattern: address)!)
    }
}
