import CTracingSupport
@_spi(Locking) import SignalScope
import Synchronization

/// What the heap walk knows about the objects that share one metadata record, decoded once
/// per record: a class instance's stored properties, a closure context's captures, a box's
/// contents.
enum HeapObjectKind: Sendable {
    /// A class instance.
    case instance(InstanceLayout)
    /// A closure context, or the box the compiler made for a captured `var`: both list
    /// their contents in a capture descriptor.
    case context(ContextDescription)
    /// A box made at run time for a value of any type (an existential's out-of-line value,
    /// a generic captured `var`).
    case genericBox(boxed: Metadata)
    /// The box of an `any Error` value.
    case errorBox
    /// A word that is not the metadata of a heap object the walk understands.
    case notAnObject

    /// What objects whose first word is `isa` are. The word may be anything (a stale
    /// word a conservative scan met), so it is read through the kernel until it checks out.
    static func of(isa: UInt) -> HeapObjectKind {
        if let known = cache.withLock({ $0[isa] }) { return known }
        let kind = decode(isa)
        // Words that are not metadata are many and each is seen once: not worth keeping.
        if case .notAnObject = kind { return kind }
        cache.withLock { $0[isa] = kind }
        return kind
    }

    private static let cache = LockedValue<[UInt: HeapObjectKind]>([:])

    /// The metadata records decoded so far.
    static var decoded: [UInt] { cache.withLock { Array($0.keys) } }

    /// Decodes, and keeps, the records of `isas` not decoded yet: what a walk in a copy of the
    /// process decoded there is lost with the copy, and decoding a record costs far more than
    /// walking the objects it describes; taught to the program, every later copy starts with
    /// it. A metadata record is never freed or changed, so reading it here is as safe as there.
    /// Called while no copy is made (``FrozenWalk/excludingCopies(_:)``): the tables it fills
    /// are the walk's.
    static func learn(_ isas: [UInt]) {
        let new = cache.withLock { cache in isas.filter { cache[$0] == nil } }
        for isa in new { _ = of(isa: isa) }
    }

    private static func decode(_ isa: UInt) -> HeapObjectKind {
        guard Memory.isPlausibleMetadataAddress(isa), let kindWord = Memory.word(at: isa) else { return .notAnObject }
        switch MetadataKind(word: kindWord) {
        case .class:
            guard MetadataCheck.isClassMetadata(isa) else { return .notAnObject }
            return .instance(InstanceLayout(Metadata(unchecked: isa)))
        case .heapLocalVariable:
            return ContextDescription(isa: isa).map(HeapObjectKind.context) ?? .notAnObject
        case .heapGenericLocalVariable:
            guard let boxed = Memory.word(at: isa + 16).flatMap(MetadataCheck.metadata) else { return .notAnObject }
            return .genericBox(boxed: boxed)
        case .errorObject:
            return .errorBox
        default:
            return .notAnObject
        }
    }
}

extension HeapCategory {
    private static let activityTypeName = String(reflecting: InstrumentationActivity.self)

    /// Whose instances a class's are, by its module (``HeapModules``); `nil` for the
    /// tracer's own objects (a recording, a test's hook), which the walk never reports.
    init?(typeName: String) {
        let module = typeName.prefix { $0 != "." && $0 != "<" }
        // A hook's activity lives in the runtime's module (subscriptions check it) but
        // belongs to the hook, like the recording itself.
        if typeName == Self.activityTypeName { return nil }
        switch HeapModules.role(of: module) {
        case .reactiveRuntime?:
            self = .runtime
            return
        case .tracer?: return nil
        case nil: break
        }
        switch module {
        case "Swift", "Foundation", "FoundationEssentials", "FoundationInternationalization", "Dispatch",
            "Synchronization", "DequeModule", "_Concurrency", "_StringProcessing", "Testing", "XCTest":
            self = .library
        default: self = .user
        }
    }
}

/// A class's instances: their stored properties, superclasses' included, and for
/// collection storage, where the elements are.
struct InstanceLayout: Sendable {
    let metadata: Metadata
    let typeName: String
    /// `nil` for the tracer's own objects.
    let category: HeapCategory?
    let instanceSize: Int
    let members: [ValueLayout.Member]
    /// Whether every stored property was decoded (a class with no reflection metadata, or
    /// a resilient superclass, leaves some out: their references are not counted).
    let isComplete: Bool
    /// For collection storage: how its tail-allocated elements are laid out.
    let storage: (any CollectionStorage)?
    /// The stored properties that could not be decoded, by name, and the bytes each may
    /// take (to the next property): scanned conservatively, so that what they may hold is
    /// known as unreadable rather than unseen.
    let unread: [(name: String, bytes: Range<Int>)]

    /// Whether an instance may hold strong references (leaves that cannot are left out of
    /// the walk's report when they are library objects: strings' storage, `[Int]`).
    var mayHoldReferences: Bool { !members.isEmpty || !isComplete || storage?.holdsReferences == true }

    init(_ metadata: Metadata) {
        self.metadata = metadata
        typeName = metadata.typeName
        instanceSize = metadata.instanceSize
        var members: [ValueLayout.Member] = []
        var isComplete = true
        // Every stored property's offset, and which could not be decoded.
        var offsets: [Int] = []
        var undecoded: [(name: String, offset: Int?)] = []
        var current: Metadata? = metadata
        while let level = current, let descriptor = level.descriptor, descriptor.kind == .class {
            if let fields = descriptor.fields {
                let arguments = level.genericArguments
                for (index, field) in fields.enumerated() {
                    let offset = level.fieldOffset(index)
                    if let offset { offsets.append(offset) }
                    guard let offset, let type = field.mangledType else {
                        isComplete = false
                        undecoded.append((field.name, offset))
                        continue
                    }
                    let layout = ValueLayout.fieldLayout(MangledName(at: type), in: descriptor, arguments: arguments, depth: 0)
                    // The runtime keeps no references in noncopyable values (its locks and
                    // atomics hold none): RetainCountTests checks its objects' counts add up.
                    if layout == .hidden, HeapCategory(typeName: level.typeName) == .runtime { continue }
                    if layout == .unknown || layout == .hidden {
                        isComplete = false
                        undecoded.append((field.name, offset))
                    }
                    if !layout.isEmpty { members.append(ValueLayout.Member(offset: offset, name: field.name, layout: layout)) }
                }
            } else {
                isComplete = false
                undecoded.append(("", nil))
            }
            current = level.superclass
        }
        self.members = members.sorted { $0.offset < $1.offset }
        let size = instanceSize
        offsets.sort()
        // A property with no known place leaves the whole object to be scanned.
        unread = undecoded.map { name, offset in
            guard let offset else { return (name, 16..<max(16, size)) }
            return (name, offset..<max(offset, offsets.first { $0 > offset } ?? size))
        }
        storage = CollectionStorages.storage(for: metadata, typeName: typeName)
        if storage != nil {
            // Storage of the tracer's own collections (its tables of live entities, its
            // threads' buffers) is the tracer's.
            category = HeapModules.mentionsTracerModule(typeName) ? nil : .storage
        } else {
            category = Self.isInstrumentation(metadata) ? nil : HeapCategory(typeName: typeName)
        }
        self.isComplete = isComplete
    }
}

extension InstanceLayout {
    /// Whether the class implements the instrumentation seam (a recorder, the fan-out to
    /// several): the tracer's machinery, which runtime objects may point at but which is
    /// never part of the app's graph.
    private static func isInstrumentation(_ metadata: Metadata) -> Bool {
        guard let pointer = UnsafeRawPointer(bitPattern: metadata.address) else { return false }
        return unsafeBitCast(pointer, to: Any.Type.self) is any SignalInstrumentation.Type
    }
}

extension MangledName {
    /// Reads a name whose address is not known to be valid through the kernel first.
    static func checked(at address: UInt) -> MangledName? {
        var cursor = address
        var remaining = 2048
        while remaining > 0 {
            guard let chunk = Memory.bytes(at: cursor, count: 1) else { return nil }
            let byte = chunk.load(at: 0, as: UInt8.self)
            if byte == 0 { return MangledName(at: address) }
            let step: UInt = (0x01...0x17).contains(byte) ? 5 : (0x18...0x1F).contains(byte) ? 9 : 1
            guard step == 1 || Memory.bytes(at: cursor, count: Int(step)) != nil else { return nil }
            cursor += step
            remaining -= 1
        }
        return nil
    }
}

/// What a value a caller holds keeps, read from its type's layout as the walk reads objects.
package enum LiveValue {
    /// The closures `value` stores in its own stored properties (not in the values those
    /// hold), each as its function and its context, in the order of the properties: what an
    /// operator was given (`map`'s transform), whose code says where it was written.
    package static func closures<Value>(in value: Value) -> [(function: UInt, context: UInt)] {
        let offsets = closureOffsets(of: unsafeBitCast(Value.self as Any.Type, to: UInt.self))
        guard !offsets.isEmpty else { return [] }
        let word = MemoryLayout<UInt>.size
        return withUnsafeBytes(of: value) { bytes in
            offsets.compactMap { offset in
                guard offset >= 0, offset + 2 * word <= bytes.count else { return nil }
                return (bytes.load(fromByteOffset: offset, as: UInt.self), bytes.load(fromByteOffset: offset + word, as: UInt.self))
            }
        }
    }

    /// Where a type's values keep closures, by its metadata's address, in a table of its own:
    /// the layouts' table is the walk's, which the program takes only while no copy of it is
    /// made (``FrozenWalk/excludingCopies(_:)``), once per type.
    private static func closureOffsets(of metadata: UInt) -> [Int] {
        offsets.value(for: metadata) {
            let layout = FrozenWalk.excludingCopies { ValueLayout.of(Metadata(unchecked: metadata)) }
            return if case .members(let members) = layout { members.filter { $0.layout == .function }.map(\.offset) } else { [] }
        }
    }

    private static let offsets = LockedValue<[UInt: [Int]]>([:])
}

/// What a live object is, for code that holds one rather than walking to it.
package enum LiveObject {
    /// Whether `object` is a closure's context (the block of its captures, which its every
    /// copy shares and no other closure does) rather than a class instance: a closure that
    /// captures one object and nothing else keeps that object as its context.
    package static func isClosureContext(_ object: AnyObject) -> Bool {
        let isa = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()).load(as: UInt.self)
        return Metadata(unchecked: isa).kind == .heapLocalVariable
    }
}
