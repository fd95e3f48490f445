import CTracingSupport
import Synchronization
@_spi(Locking) import SignalScope

/// Where a value of one type keeps its strong references, decoded once per type from its
/// metadata: stored properties (from the type's field descriptor, with the offsets its
/// metadata holds), tuple elements, enum payloads, existential contents, however nested.
indirect enum ValueLayout: Sendable, Equatable {
    /// No strong references (plain data, or only weak and unowned ones).
    case none
    /// One word: a native reference.
    case strong
    /// One word: a native reference with flags in its spare bits (`Builtin.BridgeObject`).
    case bridged
    /// Two words: a function pointer, and the context that keeps the closure's captures.
    case function
    /// One word: a weak reference (it keeps nothing alive), and the class it refers to, as
    /// `String(reflecting:)` names it, when known.
    case weak(referent: String?)
    /// A struct's stored properties, or a tuple's elements.
    case members([Member])
    /// An enum: which payload a value carries is asked of the type's value witnesses.
    case enumeration(EnumLayout)
    /// An existential (`any P`, `Any`, `any Error`).
    case existential(ExistentialRepresentation)
    /// A type the walk cannot decode (no reflection metadata): references inside it are not
    /// counted, so objects they hold look held from outside, never leaked.
    case unknown
    /// A noncopyable value (a `Mutex`, an `Atomic`), which reflection metadata describes as
    /// `()`: like ``unknown``, except in the runtime's own objects, which keep no references
    /// in noncopyable values (their guarded state sits beside their locks).
    case hidden

    /// One stored property or element.
    struct Member: Sendable, Equatable {
        let offset: Int
        let name: String
        let layout: ValueLayout
    }

    static func == (lhs: ValueLayout, rhs: ValueLayout) -> Bool {
        switch (lhs, rhs) {
        case (.none, .none), (.strong, .strong), (.bridged, .bridged), (.function, .function), (.unknown, .unknown), (.hidden, .hidden):
            true
        case (.weak(let a), .weak(let b)): a == b
        case (.members(let a), .members(let b)): a == b
        case (.enumeration(let a), .enumeration(let b)): a.metadata == b.metadata
        case (.existential(let a), .existential(let b)): a == b
        default: false
        }
    }

    /// Whether it holds anything the walk must look at.
    var isEmpty: Bool { self == .none }

    /// The layout of values of `metadata`'s type.
    static func of(_ metadata: Metadata) -> ValueLayout {
        cache.value(for: metadata.address) { compute(metadata, depth: 0) }
    }

    /// Metadata records live as long as the process, so what was decoded stays valid.
    private static let cache = LockedValue<[UInt: ValueLayout]>([:])

    private static func cached(_ metadata: Metadata, depth: Int) -> ValueLayout {
        cache.value(for: metadata.address) { compute(metadata, depth: depth) }
    }

    private static func compute(_ metadata: Metadata, depth: Int) -> ValueLayout {
        // Only enums (indirect cases) and classes can make a type refer to itself, and both
        // stop here as references; the bound guards against metadata this walk misreads.
        guard depth < 64 else { return .unknown }
        switch metadata.kind {
        case .class: return .strong
        case .function: return metadata.isThickFunction ? .function : .none
        case .existential: return .existential(metadata.existentialRepresentation)
        case .opaque: return Builtins.layout(of: metadata)
        case .metatype, .existentialMetatype: return .none
        case .tuple:
            guard !metadata.valueWitnesses.isPOD else { return .none }
            let members = metadata.tupleElements.enumerated().compactMap { index, element -> Member? in
                let layout = cached(element.type, depth: depth + 1)
                return layout.isEmpty ? nil : Member(offset: element.offset, name: "\(index)", layout: layout)
            }
            return members.isEmpty ? .none : .members(members)
        case .struct:
            guard !metadata.valueWitnesses.isPOD, !Builtins.isString(metadata) else { return .none }
            return structLayout(metadata, depth: depth)
        case .enum, .optional:
            guard !metadata.valueWitnesses.isPOD else { return .none }
            return enumLayout(metadata, depth: depth)
        case .extendedExistential:
            let (representation, isExplicitLayout) = metadata.extendedExistentialRepresentation
            if let representation { return .existential(representation) }
            return isExplicitLayout ? .unknown : .none
        case .heapLocalVariable, .heapGenericLocalVariable, .errorObject, .other:
            return .unknown
        }
    }

    private static func structLayout(_ metadata: Metadata, depth: Int) -> ValueLayout {
        guard let descriptor = metadata.descriptor, let fields = descriptor.fields else { return .unknown }
        let arguments = metadata.genericArguments
        let isLibrary = isLibraryType(metadata)
        var members: [Member] = []
        for (index, field) in fields.enumerated() {
            guard let offset = metadata.fieldOffset(index) else { return .unknown }
            let layout = field.mangledType.map {
                fieldLayout(MangledName(at: $0), in: descriptor, arguments: arguments, depth: depth)
            } ?? .unknown
            if !layout.isEmpty { members.append(Member(offset: offset, name: isLibrary ? "" : field.name, layout: layout)) }
        }
        return members.isEmpty ? .none : .members(members)
    }

    /// A library's value types (`Array`, `Optional`, `Mutex`, ...) are transparent in
    /// reference paths: `items`, not `items._buffer._storage`.
    private static func isLibraryType(_ metadata: Metadata) -> Bool {
        HeapCategory(typeName: metadata.typeName) == .library
    }

    private static func enumLayout(_ metadata: Metadata, depth: Int) -> ValueLayout {
        guard let descriptor = metadata.descriptor, let fields = descriptor.fields else { return .unknown }
        let arguments = metadata.genericArguments
        // The runtime numbers payload cases first, in declaration order, then the others.
        let payloadCases = fields.filter { $0.mangledType != nil }.prefix(descriptor.payloadCaseCount)
        let isLibrary = isLibraryType(metadata)
        let payloads = payloadCases.map { field in
            EnumLayout.Payload(
                name: isLibrary ? "" : field.name,
                layout: field.isIndirect
                    ? .strong
                    : fieldLayout(MangledName(at: field.mangledType!), in: descriptor, arguments: arguments, depth: depth))
        }
        if payloads.allSatisfy(\.layout.isEmpty) { return .none }
        // An optional reference or closure is the reference itself, with nil as zero.
        if metadata.kind == .optional, let payload = payloads.first?.layout,
            payload == .strong || payload == .function || payload == .existential(.classBound)
        {
            return payload
        }
        return .enumeration(EnumLayout(metadata: metadata, size: metadata.valueWitnesses.size, payloads: Array(payloads)))
    }

    /// The layout of a stored property or payload whose mangled type is `name`, resolved in
    /// the context of the type that declares it.
    static func fieldLayout(_ name: MangledName, in descriptor: TypeDescriptor, arguments: UInt?, depth: Int) -> ValueLayout {
        switch name.ownership {
        case .weak: return .weak(referent: nil)
        case .unowned, .unmanaged: return .none
        case .strong:
            switch name.resolveVisible(in: descriptor, arguments: arguments) {
            case .resolved(let type): return cached(type, depth: depth + 1)
            case .hidden: return .hidden
            case .unresolved: return .unknown
            }
        }
    }
}

/// An enum type's payloads, in the order of their case numbers.
struct EnumLayout: Sendable {
    let metadata: Metadata
    let size: Int
    let payloads: [Payload]

    struct Payload: Sendable {
        let name: String
        /// An indirect case's payload is a reference to the box that holds it.
        let layout: ValueLayout
    }
}

/// The runtime's built-in types that hold references, and the standard library's string
/// types, whose bridge objects hold string storage or small strings' bytes, never objects.
enum Builtins {
    private static let nativeObject = lookup("Bo")
    private static let unknownObject = lookup("BO")
    private static let bridgeObject = lookup("Bb")
    private static let strings: Set<UInt> = [Metadata(String.self).address, Metadata(Substring.self).address, Metadata(Character.self).address]

    static func layout(of metadata: Metadata) -> ValueLayout {
        switch metadata.address {
        case nativeObject, unknownObject: .strong
        case bridgeObject: .bridged
        default: .none
        }
    }

    /// A string, or a struct made of a string's storage (the views, `_StringGuts`).
    static func isString(_ metadata: Metadata) -> Bool {
        if strings.contains(metadata.address) { return true }
        let name = metadata.typeName
        return name == "Swift._StringGuts" || name == "Swift._StringObject"
    }

    private static func lookup(_ name: StaticString) -> UInt {
        name.withUTF8Buffer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { start in
                swift_getTypeByMangledNameInContext(start, buffer.count, nil, nil).map { UInt(bitPattern: $0) } ?? 0
            }
        }
    }
}
