import Synchronization
@_spi(Locking) import SignalScope

/// A closure context's (or a captured `var` box's) capture descriptor: the mangled type of
/// each capture, and for a generic context, its generic parameters and which of them it
/// binds (keeps the metadata of, before its captures).
///
/// A generic context's captures are resolved per object, with its own generic arguments:
/// the walk reads them (``layout(reading:)``), builds a generic environment from them
/// (``GenericEnvironment``) and has the runtime resolve each capture's type in it.
struct ContextDescription: Sendable {
    let isa: UInt
    /// Where the bindings start (the captures follow them).
    let bindingsOffset: Int
    let firstCapture: Int
    let captures: [MangledName]
    /// For a generic context: every parameter its captures may name.
    let parameters: [Parameter]
    /// The parameters whose metadata the context binds, and the binding that holds each.
    let bindings: [Parameter: Int]
    /// Whether the context binds generic parameters.
    let isGeneric: Bool
    /// Whether some parameter the context does not bind may be proved by a capture's type:
    /// only then does its layout depend on more than its bindings.
    let mayProveParameters: Bool
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
        // Each source pairs a parameter with where its metadata is: `B<n>` for binding n;
        // `R`, `M` and `G` sources point into the closure's function parameters, which only
        // partly are its captures (see `layout(reading:)`). Sources for anything other than
        // a plain parameter (an associated type) are not needed to resolve the captures.
        var perDepth: [Int: Int] = [:]
        var bindings: [Parameter: Int] = [:]
        for index in 0..<sourceCount {
            let offset = 4 * captureCount + 8 * index
            guard let (depth, position) = name(at: offset)?.genericParameter else { continue }
            perDepth[depth] = max(perDepth[depth] ?? 0, position + 1)
            if let encoded = name(at: offset + 4)?.tail, encoded.first == UInt8(ascii: "B"),
                let binding = Int(String(decoding: encoded.dropFirst(), as: UTF8.self)), binding < bindingCount
            {
                bindings[Parameter(depth: depth, index: position)] = binding
            }
        }
        // Every index before a named one at each depth, so that the environment is whole.
        let deepest = perDepth.keys.max() ?? -1
        parameters = deepest < 0 ? [] : (0...deepest).flatMap { depth in
            (0..<(perDepth[depth] ?? 0)).map { Parameter(depth: depth, index: $0) }
        }
        self.isa = isa
        self.bindingsOffset = bindingsOffset
        firstCapture = bindingsOffset + 8 * bindingCount
        self.captures = captures
        self.bindings = bindings
        isGeneric = bindingCount > 0 || sourceCount > 0
        let unbound = parameters.filter { bindings[$0] == nil }
        mayProveParameters = unbound.contains { parameter in
            captures.contains { $0.witness(of: (parameter.depth, parameter.index)) != nil }
        }
        fixedLayout = isGeneric ? nil : ContextLayout(captures: captures, firstCapture: firstCapture, resolver: .nonGeneric)
    }

    /// The layout of one context, whose words `word` reads (by offset in the context).
    ///
    /// A parameter bound in the context (`B<n>`) is read there. For the others, the index a
    /// source gives is that of a parameter of the closure's function, whose captures are its
    /// last parameters; a source may even name a parameter that is not a capture (the
    /// closure's argument), which does not exist at rest. So such a parameter is taken only
    /// from a capture whose own type proves it: an instance of `C<..., T, ...>` (its class
    /// keeps `T` among its generic arguments) or a captured `T.Type`. Parameters no capture
    /// proves stay unknown, and only the captures whose types do not depend on them are
    /// decoded exactly (see ``ContextLayout/Resolver``).
    func layout(reading word: (Int) -> UInt?) -> ContextLayout {
        if let fixedLayout { return fixedLayout }
        var known: [Parameter: UInt] = [:]
        for (parameter, binding) in bindings {
            known[parameter] = word(bindingsOffset + 8 * binding).flatMap(Self.checkedMetadata)
        }
        // A capture's place may depend on parameters another capture proves: read in rounds.
        var progress = mayProveParameters
        while progress {
            progress = false
            for (parameter, proofs) in proofs(knowing: known, assuming: nil) where known[parameter] == nil {
                for (_, proof) in proofs {
                    guard let metadata = proof.read(word) else { continue }
                    known[parameter] = metadata
                    progress = true
                    break
                }
            }
        }
        if mayProveParameters, parameters.contains(where: { known[$0] == nil }), let proven = provedAssuming(known, reading: word) {
            known = proven
        }
        return layout(for: known)
    }

    private func layout(for known: [Parameter: UInt]) -> ContextLayout {
        Self.genericLayouts.value(for: key(known, assuming: nil)) {
            ContextLayout(captures: captures, firstCapture: firstCapture, resolver: resolver(known, assuming: nil))
        }
    }

    /// When a proof's place depends on parameters still unknown (a `T` captured before the
    /// `C<T>` that proves it, as in a generic `{ object[keyPath: keyPath] = $0 }`), the
    /// unknown parameters are assumed in turn to be laid out as one of a few common types (a
    /// class reference first); the parameters the proofs then give are kept only if, resolved
    /// with them, every capture that proved one is where it was read. A wrong assumption
    /// can only fail that check, never decode a capture from the wrong place.
    private func provedAssuming(_ known: [Parameter: UInt], reading word: (Int) -> UInt?) -> [Parameter: UInt]? {
        for assumption in Placeholder.assumptions {
            var trial = known
            var read: [(capture: Int, offset: Int)] = []
            for (parameter, proofs) in proofs(knowing: known, assuming: assumption) where trial[parameter] == nil {
                for (capture, proof) in proofs {
                    guard let metadata = proof.read(word) else { continue }
                    trial[parameter] = metadata
                    read.append((capture, proof.offset))
                    break
                }
            }
            guard parameters.allSatisfy({ trial[$0] != nil }) else { continue }
            let offsets = layout(for: trial).offsets
            if read.allSatisfy({ $0.capture < offsets.count && offsets[$0.capture] == $0.offset }) { return trial }
        }
        return nil
    }

    /// A layout is decided by the context's type and its parameters' metadata (0: unknown),
    /// and so is where the captures that may prove the unknown ones are.
    private func key(_ known: [Parameter: UInt], assuming assumption: UInt?) -> GenericContextKey {
        GenericContextKey(isa: isa, arguments: parameters.map { known[$0] ?? 0 }, assumption: assumption ?? 0)
    }

    /// A generic parameter, by depth and index.
    struct Parameter: Hashable {
        let depth: Int
        let index: Int
    }

    /// Resolves captures with the known parameters; an unknown one stands as `assumption`
    /// when given, else as two placeholders in turn, so that only what does not depend on it
    /// is placed.
    private func resolver(_ known: [Parameter: UInt], assuming assumption: UInt?) -> ContextLayout.Resolver {
        func environment(filling unknown: UInt) -> GenericEnvironment? {
            GenericEnvironment(parameters: parameters.map { ($0.depth, $0.index, known[$0] ?? unknown) })
        }
        guard let exact = environment(filling: assumption ?? Placeholder.first) else { return .unavailable }
        if assumption != nil || parameters.allSatisfy({ known[$0] != nil }) { return .environment(exact, alternative: nil) }
        return .environment(exact, alternative: environment(filling: Placeholder.second))
    }

    /// Two types of different layouts standing in for unknown parameters: a capture whose
    /// type resolves to the same metadata with either does not depend on them.
    private enum Placeholder {
        static let first = Metadata(Void.self).address
        static let second = Metadata((Int, Int, Int).self).address
        /// What an unknown parameter is assumed to be laid out as, in order: a class
        /// reference (the generic `Root: AnyObject` a helper captures), then a few sizes.
        static let assumptions = [
            Metadata(AnyObject.self).address, first, Metadata(Int.self).address, Metadata((Int, Int).self).address, second,
        ]
    }

    /// Where a capture whose type proves a parameter is, and how to read the parameter off it.
    private enum Proof: Sendable {
        /// A captured `T.Type`: the word is the metadata.
        case metatype(offset: Int)
        /// An instance of a generic class: its metadata keeps the parameter `argumentWord`
        /// words in.
        case genericArgument(offset: Int, argumentWord: Int)

        var offset: Int {
            switch self {
            case .metatype(let offset), .genericArgument(let offset, _): offset
            }
        }

        func read(_ word: (Int) -> UInt?) -> UInt? {
            switch self {
            case .metatype(let offset):
                return word(offset).flatMap(ContextDescription.checkedMetadata)
            case .genericArgument(let offset, let argumentWord):
                guard let object = word(offset), Memory.isPlausibleObjectAddress(object),
                    let isa = Memory.word(at: object).flatMap(ContextDescription.checkedMetadata)
                else { return nil }
                return Memory.word(at: isa + UInt(8 * argumentWord)).flatMap(ContextDescription.checkedMetadata)
            }
        }
    }

    /// For each parameter `known` leaves unknown, the captures that may prove it (by index),
    /// in order, placed without depending on the unknown parameters or, with an
    /// `assumption`, as if each were laid out as that type: worked out once per context type,
    /// known parameters and assumption (resolving capture types to place them is what costs),
    /// then only read per object.
    private func proofs(knowing known: [Parameter: UInt], assuming assumption: UInt?) -> [(Parameter, [(Int, Proof)])] {
        Self.proofPlans.value(for: key(known, assuming: assumption)) {
            let resolver = resolver(known, assuming: assumption)
            return parameters.filter { known[$0] == nil }.map { parameter in
                let proofs = captures.indices.compactMap { index -> (Int, Proof)? in
                    let capture = captures[index]
                    switch capture.witness(of: (parameter.depth, parameter.index)) {
                    case nil:
                        return nil
                    case .metatype:
                        return captureOffset(index, resolver).map { (index, .metatype(offset: $0)) }
                    case .genericArgument(let argument):
                        guard let offset = captureOffset(index, resolver),
                            let arguments = capture.leadingClassDescriptor?.classGenericArgumentOffset
                        else { return nil }
                        return (index, .genericArgument(offset: offset, argumentWord: arguments + argument))
                    }
                }
                return (parameter, proofs)
            }
        }
    }

    private static func checkedMetadata(_ word: UInt) -> UInt? {
        ObjectReader.checkedType(word)?.address
    }

    /// Where capture `index` is, if every capture before it can be placed.
    private func captureOffset(_ index: Int, _ resolver: ContextLayout.Resolver) -> Int? {
        guard index < captures.count else { return nil }
        let layout = ContextLayout(captures: Array(captures[...index]), firstCapture: firstCapture, resolver: resolver)
        return layout.offsets.count == index + 1 ? layout.offsets.last : nil
    }

    private struct GenericContextKey: Hashable {
        let isa: UInt
        /// Each parameter's metadata, 0 for unknown.
        let arguments: [UInt]
        /// What unknown parameters are assumed to be laid out as (0: nothing is assumed).
        let assumption: UInt
    }

    private static let genericLayouts = LockedValue<[GenericContextKey: ContextLayout]>([:])
    private static let proofPlans = LockedValue<[GenericContextKey: [(Parameter, [(Int, Proof)])]]>([:])
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
        /// With the generic parameters the context binds. When some are unknown, they stand
        /// as one placeholder type in the first environment and another in the alternative:
        /// a name whose values are laid out alike with both does not depend on them for its
        /// layout (`[Signal<T>]` is one reference whatever `T`; a `T` stored inline is as
        /// large as the placeholder), and is read exactly.
        case environment(GenericEnvironment, alternative: GenericEnvironment?)
        /// The context is generic but names no parameter its captures could be resolved
        /// with: names that may refer to generic parameters must not be resolved (the
        /// runtime traps on them).
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

    /// Whether values of `a` and `b` keep their references in the same places.
    private static func isLaidOutAlike(_ a: Metadata, _ b: Metadata) -> Bool {
        if a == b { return true }
        let (x, y) = (a.valueWitnesses, b.valueWitnesses)
        return x.size == y.size && x.alignment == y.alignment && ValueLayout.of(a) == ValueLayout.of(b)
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
        // A captured metatype is its type's metadata, whatever the type: never a reference.
        if let thick = name.metatypeIsThick { return thick ? (.none, 8, 8) : (.none, 0, 1) }
        let ownership = name.ownership
        let typeName = ownership == .strong ? name : name.referent
        let resolved: Metadata? =
            switch resolver {
            case .nonGeneric:
                if case .resolved(let type) = typeName.resolveVisible(in: nil, arguments: nil) { type } else { nil }
            case .environment(let environment, let alternative):
                typeName.resolve(in: environment).flatMap { type in
                    alternative.map { typeName.resolve(in: $0).map { Self.isLaidOutAlike(type, $0) } ?? false } ?? true ? type : nil
                }
            case .unavailable: nil
            }
        guard let type = resolved else {
            // An instance of a class, generic or not, is one reference whatever its arguments.
            guard typeName.leadingClassDescriptor != nil, typeName.isNominalReference else { return nil }
            return (ownership == .strong ? .strong : ownership == .weak ? .weak(referent: nil) : .none, 8, 8)
        }
        // A hidden (noncopyable) capture's size is unknown: the captures after it cannot be
        // placed, so the rest is scanned conservatively.
        guard !(typeName.isAccessorFunction && type == Metadata(Void.self)) else { return nil }
        let witnesses = type.valueWitnesses
        let layout: ValueLayout =
            switch ownership {
            case .strong: ValueLayout.of(type)
            case .weak: .weak(referent: Self.referent(of: type))
            case .unowned, .unmanaged: .none
            }
        return (layout, witnesses.size, witnesses.alignment)
    }

    /// The class a weak capture of type `type` (an optional of it) refers to: a `[weak self]`'s
    /// `self`, which a tool can name once the object itself is gone.
    private static func referent(of type: Metadata) -> String {
        let name = String(reflecting: type.type)
        let optional = "Swift.Optional<"
        return name.hasPrefix(optional) && name.hasSuffix(">") ? String(name.dropFirst(optional.count).dropLast()) : name
    }
}
