import Synchronization

/// A closure context's (or a captured `var` box's) capture descriptor: the mangled type of
/// each capture, and for a generic context, where the metadata of each generic parameter is
/// kept (``MetadataSource``).
///
/// A generic context's captures are resolved per object, with its own generic arguments:
/// the walk reads them where the sources say, builds a generic environment from them
/// (``GenericEnvironment``) and has the runtime resolve each capture's type in it.
struct ContextDescription: Sendable {
    let isa: UInt
    /// Where the bindings start (the captures follow them).
    let bindingsOffset: Int
    let firstCapture: Int
    let captures: [MangledName]
    /// For generic contexts: each parameter (depth, index) and where its metadata is.
    let sources: [(depth: Int, index: Int, source: MetadataSource)]
    let bindingCount: Int
    /// Whether the context binds generic parameters.
    let isGeneric: Bool
    /// For a context with no generic parameters: its layout, the same for every object.
    let fixedLayout: ContextLayout?

    /// Reads the descriptor through the kernel (`isa` is unchecked); `nil` if it does not
    /// look like one.
    init?(isa: UInt) {
        guard let header = Memory.bytes(at: isa + 8, count: 16) else { return nil }
        // The header's offset is that of the bindings (the generic parameters' metadata),
        // which come first; the captures follow them.
        let bindingsOffset = Int(header.load(at: 0, as: UInt32.self))
        let descriptor = header.load(at: 8, as: UInt.self)
        guard Memory.isPlausibleDescriptorAddress(descriptor), let counts = Memory.bytes(at: descriptor, count: 12) else {
            return nil
        }
        let captureCount = Int(counts.load(at: 0, as: UInt32.self))
        let sourceCount = Int(counts.load(at: 4, as: UInt32.self))
        let bindingCount = Int(counts.load(at: 8, as: UInt32.self))
        guard captureCount < 4096, sourceCount < 256, bindingCount < 256, bindingsOffset == 16,
            let records = Memory.bytes(at: descriptor + 12, count: 4 * captureCount + 8 * sourceCount)
        else { return nil }
        func name(at offset: Int) -> MangledName? {
            let field = descriptor + 12 + UInt(offset)
            let target = UInt(bitPattern: Int(bitPattern: field) &+ Int(records.load(at: offset, as: Int32.self)))
            return MangledName.checked(at: target)
        }
        var captures: [MangledName] = []
        for index in 0..<captureCount {
            guard let capture = name(at: 4 * index) else { return nil }
            captures.append(capture)
        }
        var sources: [(Int, Int, MetadataSource)] = []
        for index in 0..<sourceCount {
            let offset = 4 * captureCount + 8 * index
            // A source for something other than a plain parameter (an associated type) is
            // not needed to resolve the captures' own parameters.
            guard let parameter = name(at: offset)?.genericParameter, let encoded = name(at: offset + 4),
                let source = MetadataSource(encoded: encoded.tail)
            else { continue }
            sources.append((parameter.depth, parameter.index, source))
        }
        self.isa = isa
        self.bindingsOffset = bindingsOffset
        firstCapture = bindingsOffset + 8 * bindingCount
        self.captures = captures
        self.sources = sources
        self.bindingCount = bindingCount
        isGeneric = bindingCount > 0 || sourceCount > 0
        fixedLayout = isGeneric ? nil : ContextLayout(captures: captures, firstCapture: firstCapture, resolver: .nonGeneric)
    }

    /// The layout of one context, whose words `word` reads (by offset in the context).
    func layout(reading word: (Int) -> UInt?) -> ContextLayout {
        if let fixedLayout { return fixedLayout }
        // Each source that can be read now; a reference capture's place may depend on
        // parameters other sources give, so they are read in rounds.
        var parameters: [(depth: Int, index: Int, metadata: UInt)] = []
        var pending = sources
        var progress = true
        while progress, !pending.isEmpty {
            progress = false
            let known = environment(parameters)
            pending = pending.filter { parameter in
                guard let metadata = evaluate(parameter.source, known, word) else { return true }
                parameters.append((parameter.depth, parameter.index, metadata))
                progress = true
                return false
            }
        }
        let key = GenericContextKey(isa: isa, arguments: parameters.map { [UInt($0.depth), UInt($0.index), $0.metadata] })
        if let known = Self.genericLayouts.withLock({ $0[key] }) { return known }
        let layout = ContextLayout(captures: captures, firstCapture: firstCapture, resolver: environment(parameters))
        Self.genericLayouts.withLock { $0[key] = layout }
        return layout
    }

    private func environment(_ parameters: [(depth: Int, index: Int, metadata: UInt)]) -> ContextLayout.Resolver {
        GenericEnvironment(parameters: parameters).map { .environment($0) } ?? .unavailable
    }

    /// The metadata a source names, if it can be read with what is known so far.
    private func evaluate(_ source: MetadataSource, _ resolver: ContextLayout.Resolver, _ word: (Int) -> UInt?) -> UInt? {
        switch source {
        case .binding(let index):
            guard index < bindingCount else { return nil }
            return word(bindingsOffset + 8 * index).flatMap(checkedMetadata)
        case .metadataCapture(let index):
            return captureOffset(index, resolver).flatMap(word).flatMap(checkedMetadata)
        case .referenceCapture(let index):
            // The class of the captured object: its first word.
            guard let object = captureOffset(index, resolver).flatMap(word), Memory.isPlausibleObjectAddress(object) else {
                return nil
            }
            return Memory.word(at: object).flatMap(checkedMetadata)
        case .genericArgument(let argument, let base):
            guard let metadata = evaluate(base, resolver, word) else { return nil }
            let arguments: UInt?
            if case .referenceCapture(let index) = base {
                // The object may be of a subclass: the argument sits where the captured
                // type's own class keeps its generic arguments, in the subclass's metadata too.
                arguments = captures[index].leadingClassDescriptor?.classGenericArgumentOffset.map { metadata + UInt(8 * $0) }
            } else {
                arguments = Metadata(unchecked: metadata).genericArguments
            }
            guard let arguments else { return nil }
            return Memory.word(at: arguments + UInt(8 * argument)).flatMap(checkedMetadata)
        }
    }

    private func checkedMetadata(_ word: UInt) -> UInt? {
        ObjectReader.checkedType(word)?.address
    }

    /// Where capture `index` is, if every capture before it can be placed.
    private func captureOffset(_ index: Int, _ resolver: ContextLayout.Resolver) -> Int? {
        guard index < captures.count else { return nil }
        return ContextLayout(captures: Array(captures[...index]), firstCapture: firstCapture, resolver: resolver).offsets.last
    }

    private struct GenericContextKey: Hashable {
        let isa: UInt
        let arguments: [[UInt]]
    }

    private static let genericLayouts = Mutex<[GenericContextKey: ContextLayout]>([:])
}

/// Where one closure context's captures are: exactly, up to the first capture whose type
/// cannot be resolved, and from there a conservative scan.
struct ContextLayout: Sendable {
    let members: [ValueLayout.Member]
    /// Where each capture that could be placed starts, in order.
    let offsets: [Int]
    /// Where the conservatively scanned rest starts, if any.
    let conservativeFrom: Int?
    /// How many bytes the exactly decoded captures span.
    let exactSize: Int

    /// How capture types are resolved.
    enum Resolver {
        /// The context binds no generic parameters: its names refer to none.
        case nonGeneric
        /// With the generic parameters the context binds.
        case environment(GenericEnvironment)
        /// The context is generic but its parameters could not be read: names that may refer
        /// to generic parameters must not be resolved (the runtime traps on them).
        case unavailable
    }

    init(captures: [MangledName], firstCapture: Int, resolver: Resolver) {
        var members: [ValueLayout.Member] = []
        var offsets: [Int] = []
        var offset = firstCapture
        var conservativeFrom: Int?
        for (index, capture) in captures.enumerated() {
            guard let (layout, size, alignment) = Self.capture(capture, resolver: resolver) else {
                conservativeFrom = offset
                break
            }
            offset = (offset + alignment - 1) & ~(alignment - 1)
            offsets.append(offset)
            if !layout.isEmpty { members.append(ValueLayout.Member(offset: offset, name: "capture \(index)", layout: layout)) }
            offset += size
        }
        self.members = members
        self.offsets = offsets
        self.conservativeFrom = conservativeFrom
        exactSize = conservativeFrom ?? offset
    }

    /// A capture's layout, size and alignment, or `nil` when its type cannot be resolved.
    private static func capture(
        _ name: MangledName, resolver: Resolver
    ) -> (ValueLayout, size: Int, alignment: Int)? {
        // A captured `var` or `[weak x]` is one reference to a box that describes itself.
        if name.isBox { return (.strong, 8, 8) }
        // Captured closures are named by their lowered type, which the runtime does not
        // resolve; their layout is fixed whatever their type.
        if let thick = name.loweredFunctionIsThick { return thick ? (.function, 16, 8) : (.none, 8, 8) }
        let ownership = name.ownership
        let typeName = ownership == .strong ? name : name.referent
        let resolved: Metadata? =
            switch resolver {
            case .nonGeneric:
                if case .resolved(let type) = typeName.resolveVisible(in: nil, arguments: nil) { type } else { nil }
            case .environment(let environment): typeName.resolve(in: environment)
            case .unavailable: nil
            }
        guard let type = resolved else {
            // An instance of a class, generic or not, is one reference whatever its arguments.
            guard typeName.leadingClassDescriptor != nil, typeName.isNominalReference else { return nil }
            return (ownership == .strong ? .strong : ownership == .weak ? .weak : .none, 8, 8)
        }
        // A hidden (noncopyable) capture's size is unknown: the captures after it cannot be
        // placed, so the rest is scanned conservatively.
        guard !(typeName.isAccessorFunction && type == Metadata(Void.self)) else { return nil }
        let witnesses = type.valueWitnesses
        let layout: ValueLayout =
            switch ownership {
            case .strong: ValueLayout.of(type)
            case .weak: .weak
            case .unowned, .unmanaged: .none
            }
        return (layout, witnesses.size, witnesses.alignment)
    }
}
