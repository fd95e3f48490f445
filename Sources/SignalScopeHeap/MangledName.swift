import CTracingSupport

/// A mangled type name from reflection metadata (a field's type, a capture's type), read in
/// place: the symbolic references in it are relative to where it is, so the runtime must
/// resolve it there.
struct MangledName {
    let address: UInt
    let length: Int
    /// The plain text after the last symbolic reference: the part that can carry the
    /// suffixes this type looks at (a symbolic reference's offset bytes cannot be read as
    /// text).
    let tail: [UInt8]

    /// Reads the name at `address`, which must be valid reflection metadata.
    init(at address: UInt) {
        self.address = address
        var cursor = address
        var tail: [UInt8] = []
        while true {
            let byte = UnsafeRawPointer(bitPattern: cursor)!.load(as: UInt8.self)
            if byte == 0 { break }
            switch byte {
            case 0x01...0x17:  // a relative symbolic reference: the byte and 4 offset bytes
                cursor += 5
                tail = []
            case 0x18...0x1F:  // an absolute symbolic reference: the byte and a pointer
                cursor += 9
                tail = []
            default:
                cursor += 1
                tail.append(byte)
            }
        }
        length = Int(cursor - address)
        self.tail = tail
    }

    private init(address: UInt, length: Int, tail: [UInt8]) {
        self.address = address
        self.length = length
        self.tail = tail
    }

    private func hasSuffix(_ suffix: String) -> Bool {
        tail.count >= suffix.utf8.count && tail.suffix(suffix.utf8.count).elementsEqual(suffix.utf8)
    }

    /// How a stored property or capture holds its value.
    enum Ownership {
        case strong, weak, unowned, unmanaged
    }

    /// `Xw` weak, `Xo` unowned, `Xu` unowned(unsafe); anything else is strong.
    var ownership: Ownership {
        if hasSuffix("Xw") { return .weak }
        if hasSuffix("Xo") { return .unowned }
        if hasSuffix("Xu") { return .unmanaged }
        return .strong
    }

    /// The referent's type, for a weak or unowned name: the name without its suffix.
    var referent: MangledName {
        MangledName(address: address, length: length - 2, tail: Array(tail.dropLast(2)))
    }

    /// A name that is one reference to a function that makes the type's metadata: what the
    /// compiler writes for a type the runtime's demangler may not know, notably a
    /// noncopyable one, whose function answers `()` on this platform so that reflection
    /// never copies it.
    var isAccessorFunction: Bool {
        length == 5 && UnsafeRawPointer(bitPattern: address)!.load(as: UInt8.self) == 0x09
    }

    /// Resolves the name, or says the type is hidden: a noncopyable type, which
    /// reflection metadata describes as `()` (see ``isAccessorFunction``).
    func resolveVisible(in descriptor: TypeDescriptor?, arguments: UInt?) -> Resolution {
        guard let type = resolve(in: descriptor, arguments: arguments) else { return .unresolved }
        return isAccessorFunction && type == Metadata(Void.self) ? .hidden : .resolved(type)
    }

    enum Resolution {
        case resolved(Metadata)
        /// A noncopyable type reflection cannot describe.
        case hidden
        case unresolved
    }

    /// The class the name starts with, when it starts with a symbolic reference to a class
    /// descriptor (directly, or through a pointer).
    var leadingClassDescriptor: TypeDescriptor? {
        let start = UnsafeRawPointer(bitPattern: address)!
        let kind = start.load(as: UInt8.self)
        guard length >= 5, kind == 0x01 || kind == 0x02 else { return nil }
        let field = address + 1
        guard var descriptor = Raw.relative(field) else { return nil }
        if kind == 0x02 {
            guard Memory.isPlausibleMetadataAddress(descriptor), let pointed = Memory.word(at: descriptor) else { return nil }
            descriptor = pointed
        }
        guard Memory.isPlausibleDescriptorAddress(descriptor),
            let flags = Memory.bytes(at: descriptor, count: 4)?.load(at: 0, as: UInt32.self), flags & 0x1F == 16
        else { return nil }
        return TypeDescriptor(address: descriptor)
    }

    /// Whether the name is its leading nominal type itself, bound to generic arguments or
    /// not, optional or not (`<C>`, `<C>yxG`, `<C>Sg`): not a tuple, function or metatype
    /// that starts with it (those constructs come after their operands).
    var isNominalReference: Bool {
        if length == 5 { return true }
        let genericClose = tail.last == UInt8(ascii: "G") || tail.suffix(3).elementsEqual("GSg".utf8)
        let opensGeneric = UnsafeRawPointer(bitPattern: address)!.load(fromByteOffset: 5, as: UInt8.self) == UInt8(ascii: "y")
        return (length == 7 && tail.elementsEqual("Sg".utf8)) || (opensGeneric && genericClose)
    }

    /// A box the compiler made for a captured `var` or a `[weak x]` capture: the capture
    /// is one strong reference to the box, which describes its own contents.
    var isBox: Bool { hasSuffix("Xx") || hasSuffix("XX") || hasSuffix("Xb") }

    /// For a lowered function type (`...I` calling conventions `_`), as capture descriptors
    /// name captured closures, optional or not: whether it is thick (a function pointer and
    /// a context) or thin; `nil` for any other type. An optional function is as large as
    /// the function, a null function pointer being `nil`.
    var loweredFunctionIsThick: Bool? {
        var text = tail[...]
        if text.suffix(2).elementsEqual("Sg".utf8) { text = text.dropLast(2) }
        guard text.last == UInt8(ascii: "_"), let marker = text.lastIndex(of: UInt8(ascii: "I")) else { return nil }
        var conventions = text[(marker + 1)...].dropLast()
        if conventions.first == UInt8(ascii: "e") { conventions = conventions.dropFirst() }  // escaping
        switch conventions.first {
        case UInt8(ascii: "t"): return false
        case UInt8(ascii: "g"), UInt8(ascii: "x"), UInt8(ascii: "y"): return true
        default: return nil
        }
    }

    /// For a metatype with an explicit representation (`XMT` thick, `XMt` thin), as capture
    /// descriptors name a captured `Self.Type`: whether it is thick (one word, the type's
    /// metadata, which is no reference) or thin (nothing). `nil` for any other type.
    var metatypeIsThick: Bool? {
        if hasSuffix("XMT") { return true }
        if hasSuffix("XMt") { return false }
        return nil
    }

    /// The generic parameter this name is, as depth and index (`x` is 0, 0; `q_` is 0, 1;
    /// `qd__` is 1, 0), or `nil` when it is any other type.
    var genericParameter: (depth: Int, index: Int)? {
        guard tail.count == length else { return nil }
        var text = tail[...]
        guard let parameter = Self.parameter(&text), text.isEmpty else { return nil }
        return parameter
    }

    /// How a value of this type proves the metadata of a generic parameter, if it does.
    enum Witness: Equatable {
        /// The value is the parameter's metatype (`T.Type`).
        case metatype
        /// The value is an instance of a generic class (`C<..., T, ...>`, optional or not),
        /// whose metadata keeps the parameter as its generic argument at this index.
        case genericArgument(Int)
    }

    /// How a value of this type proves `parameter`'s metadata: only a type made of nothing
    /// but the parameter and plain standard types is read, so that the argument's index is
    /// certain (a nested type's arguments, or an argument that is itself generic, are not).
    func witness(of parameter: (depth: Int, index: Int)) -> Witness? {
        if tail.count == length {
            for marker in ["m", "XMT"] where hasSuffix(marker) {
                var text = tail.dropLast(marker.utf8.count)
                if let named = Self.parameter(&text), text.isEmpty, named == parameter { return .metatype }
            }
            return nil
        }
        guard tail.count == length - 5, leadingClassDescriptor != nil else { return nil }
        var text = tail[...]
        if text.count > 2, text.suffix(2).elementsEqual("Sg".utf8) { text = text.dropLast(2) }
        guard text.popFirst() == UInt8(ascii: "y"), text.popLast() == UInt8(ascii: "G") else { return nil }
        var index = 0
        var found: Int?
        while !text.isEmpty {
            if let named = Self.parameter(&text) {
                if named == parameter, found == nil { found = index }
            } else if text.count >= 2, text.first == UInt8(ascii: "S"), Self.plainStandardTypes.contains(text[text.startIndex + 1]) {
                text = text.dropFirst(2)
            } else {
                return nil
            }
            index += 1
        }
        return found.map { .genericArgument($0) }
    }

    /// `Si`, `Su`, `SS`, `Sb`, `Sd`, `Sf`: standard types with no arguments of their own.
    private static let plainStandardTypes: Set<UInt8> = Set("iuSbdf".utf8)

    /// Reads one generic parameter off the front of `text`:
    /// `x` | `q` INDEX | `qz` | `qd` INDEX INDEX, where INDEX is `_` (0) or NATURAL `_`
    /// (NATURAL + 1).
    private static func parameter(_ text: inout ArraySlice<UInt8>) -> (depth: Int, index: Int)? {
        var cursor = text
        func index() -> Int? {
            var value = 0
            var digits = 0
            while let byte = cursor.first, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
                cursor = cursor.dropFirst()
                if digits > 6 { return nil }
            }
            guard cursor.popFirst() == UInt8(ascii: "_") else { return nil }
            return digits == 0 ? 0 : value + 1
        }
        let result: (Int, Int)?
        switch cursor.popFirst() {
        case UInt8(ascii: "x"): result = (0, 0)
        case UInt8(ascii: "q"):
            switch cursor.first {
            case UInt8(ascii: "z"):
                cursor = cursor.dropFirst()
                result = (0, 0)
            case UInt8(ascii: "d"):
                cursor = cursor.dropFirst()
                guard let depth = index(), let position = index() else { return nil }
                result = (depth + 1, position)
            default:
                result = index().map { (0, $0 + 1) }
            }
        default: result = nil
        }
        guard let result else { return nil }
        text = cursor
        return result
    }

    /// Resolves the name in the context of a nominal type (whose generic arguments its
    /// metadata holds), or of none.
    func resolve(in descriptor: TypeDescriptor?, arguments: UInt?) -> Metadata? {
        // A name that refers to generic parameters with no arguments to take them from
        // makes the runtime trap, not fail: generic types always pass theirs.
        // The `2` entry point resolves noncopyable types (a `Mutex` a class stores) to
        // themselves, where the older one answers `()`.
        guard let start = UnsafePointer<CChar>(bitPattern: address),
            let metadata = swift_getTypeByMangledNameInContext2(
                start, length, descriptor.flatMap { UnsafeRawPointer(bitPattern: $0.address) },
                arguments.flatMap { UnsafePointer<UnsafeRawPointer?>(bitPattern: $0) })
        else { return nil }
        return Metadata(unchecked: UInt(bitPattern: metadata))
    }

    /// Resolves the name with its generic parameters bound by `environment`.
    func resolve(in environment: GenericEnvironment) -> Metadata? {
        guard let start = UnsafePointer<CChar>(bitPattern: address) else { return nil }
        return environment.withDescriptor { descriptor, arguments in
            swift_getTypeByMangledNameInEnvironment(start, length, descriptor, arguments)
                .map { Metadata(unchecked: UInt(bitPattern: $0)) }
        }
    }
}
