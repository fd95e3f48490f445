import CTracingSupport

/// Walks the heap from a set of roots, following every strong reference exactly, and
/// reports each object reached (its type and strong retain count) and each reference
/// (what holds it, and where).
///
/// What it follows: class instances' stored properties (superclasses' included, weak and
/// unowned ones left out, as their field descriptors say), closure contexts' captures (their
/// capture descriptors, generic ones resolved with the metadata they bind), boxes, nested
/// closures, structs, tuples, enum payloads (projected by the enum's own value witnesses),
/// existentials, and the elements of arrays, dictionaries, sets and deques. Where a closure
/// context's capture types cannot be resolved, the rest of it is scanned conservatively,
/// and what that finds is marked as such.
///
/// Breadth-first, to a budget: objects beyond it are reported with their retain counts but
/// not explored, and the result says the budget ran out, so that what they hold counts as
/// unknown rather than absent.
package struct HeapWalker {
    package typealias Limits = HeapWalkLimits

    /// An object the walk reached.
    package struct Vertex {
        package let address: UInt
        package let typeName: String
        package let category: HeapCategory
        /// Strong references to it, not counting the walk's own.
        package let retainCount: Int
        package let depth: Int
        /// Its isa: the class metadata of an instance.
        package let metadata: UInt
        package var exploration: Exploration = .notExplored
        /// Who allocated it, and when, when the allocation table says (allocated since the
        /// time the walk was given).
        package var allocatedBy: Allocator?
        /// For a closure context: the classes of its weak captures whose objects were already
        /// freed (a `[weak self]` whose `self` has gone), as `String(reflecting:)` names them
        /// ("" when the walk could not tell).
        package var freedWeakCaptures: [String] = []
    }

    /// What was running when an object was allocated.
    package struct Allocator: Hashable {
        /// The kernel's id of the thread.
        package let thread: UInt32
        /// The Swift task, or 0.
        package let task: UInt
        /// Whose recorded code the thread was running (a recording's identity), or 0.
        package let scope: UInt64
        /// When, by the allocation table's clock (which orders allocations across threads).
        package let time: UInt64

        init(thread: UInt32, task: UInt, scope: UInt64, time: UInt64) {
            self.thread = thread
            self.task = task
            self.scope = scope
            self.time = time
        }

        /// What the allocation table says of an object.
        package init(_ entry: signalscope_allocation) {
            self.init(thread: entry.thread, task: entry.task, scope: entry.scope, time: entry.time)
        }
    }

    package typealias Exploration = HeapExploration

    /// What the caller said an object is (a signal, a subscription, ...), carried through
    /// the walk unread: a kind and an id, both in the caller's own numbering.
    package struct Tag: Hashable, Sendable {
        package let kind: UInt8
        package let id: UInt64

        package init(kind: UInt8, id: UInt64) {
            self.kind = kind
            self.id = id
        }
    }

    /// A strong reference between two reached objects (indices into the vertices).
    package struct Edge {
        package let from: Int
        package let to: Int
        package let reference: FoundReference
    }

    package struct Result {
        package var vertices: [Vertex] = []
        package var edges: [Edge] = []
        package var index: [UInt: Int] = [:]
        /// The object budget ran out.
        package var objectLimitReached = false
        /// Some objects were beyond the depth budget.
        package var depthLimitReached = false
        /// Memory could not be read through the kernel (a sandbox denies it): the walk
        /// saw nothing, which must not pass for a heap without leaks.
        package var memoryUnreadable = false
        /// What the roots said of the objects they loaded, by address.
        package var entities: [UInt: HeapWalker.Tag] = [:]
        /// Whether the walk started from every object in the allocation table too.
        package var usedAllocationTable = false
        /// How many entries the allocation table had (freed objects among them).
        package var allocationCandidates = 0
        /// Why no walk was made at all, when it could not be made safely (no frozen copy of
        /// the process, and other threads running).
        package var unwalkedReason: String?
        /// The metadata records whose objects the walk decoded, for a walk in a copy of the
        /// process to teach the program (``HeapObjectKind/learn(_:)``).
        package var decodedMetadata: [UInt] = []
    }

    package let limits: Limits
    /// Called for each object explored (a forked walk reports its progress this way).
    package var onProgress: (() -> Void)?

    package init(limits: Limits) {
        self.limits = limits
    }

    /// Where a walk starts: an object the caller holds weakly (a signal, a subscription, a
    /// command), loaded strongly only for the moment the walk reads it.
    package struct Root {
        /// Loads the object, or `nil` if it is gone.
        package let load: () -> AnyObject?
        /// The runtime entity it is, if any.
        package var entity: HeapWalker.Tag?

        package init(load: @escaping () -> AnyObject?, entity: HeapWalker.Tag? = nil) {
            self.load = load
            self.entity = entity
        }
    }

    /// Where a walk starts: an object the caller holds one strong reference to for the
    /// whole walk (left out of its retain count).
    package struct HeldRoot {
        package let address: UInt
        package var entity: HeapWalker.Tag?
    }

    /// Walks from `roots`. Objects closures refer to weakly are walked too (a `[weak self]`
    /// observer's `self`), so that a cycle no runtime object is part of can still be found.
    ///
    /// The walk holds a root, or an object it loads from a weak reference, only while it
    /// reads it (and leaves that reference out of its retain count): an object the app
    /// lets go of meanwhile is freed then, not when the walk ends, so that a test checking
    /// a deinit is not fooled by a recording ending on another thread.
    /// `held` roots are walked first, then `roots`, then every object of `allocations` that
    /// is still one: its first word is still the metadata it was allocated with, and it is a
    /// live object of a kind the walk knows. `allocations` is `nil` when the allocation table
    /// was not kept.
    package func walk(roots: [Root], held: [HeldRoot] = [], allocations: [signalscope_allocation]? = nil) -> Result {
        var result = Result()
        guard Memory.isReadable else {
            result.memoryUnreadable = true
            return result
        }
        var pins: [UInt: Int] = [:]
        for root in held { pins[root.address, default: 0] += 1 }
        var allocators: [UInt: Allocator] = [:]
        for entry in allocations ?? [] { allocators[entry.address] = Allocator(entry) }
        var queue: [Int] = []
        var visited: [Bool] = []
        var explored = 0
        func add(_ address: UInt, depth: Int) -> Int? {
            if let known = result.index[address] { return known }
            guard var vertex = makeVertex(address, depth: depth, pins: pins) else { return nil }
            vertex.allocatedBy = allocators[address]
            result.index[address] = result.vertices.count
            result.vertices.append(vertex)
            visited.append(false)
            queue.append(result.vertices.count - 1)
            return result.vertices.count - 1
        }
        /// Objects loaded from weak references, held until read.
        var loaded: [(index: Int, object: UnsafeMutableRawPointer)] = []
        func release(_ object: UnsafeMutableRawPointer) {
            pins[UInt(bitPattern: object), default: 1] -= 1
            Unmanaged<AnyObject>.fromOpaque(object).release()
        }
        func explore(_ index: Int) {
            guard !visited[index] else { return }
            visited[index] = true
            let vertex = result.vertices[index]
            guard vertex.depth < limits.depth else {
                result.depthLimitReached = true
                return
            }
            guard explored < limits.objects else {
                result.objectLimitReached = true
                return
            }
            explored += 1
            onProgress?()
            guard let isa = Memory.word(at: vertex.address),
                let contents = ObjectReader.read(vertex.address, isa: isa, memory: CheckedMemory())
            else { return }
            result.vertices[index].exploration = contents.isComplete ? .complete : .partial
            prefetchMetadata(of: contents.references.map(\.target), known: result.index)
            for reference in contents.references {
                guard let target = add(reference.target, depth: vertex.depth + 1) else { continue }
                result.edges.append(Edge(from: index, to: target, reference: reference))
            }
            // Learn of what closures refer to weakly; the load retains it until it is read.
            for slot in contents.weakReferences where vertex.category == .closureContext {
                guard let object = swift_weakLoadStrong(UnsafeMutableRawPointer(bitPattern: slot.address)!) else {
                    result.vertices[index].freedWeakCaptures.append(slot.referent ?? "")
                    continue
                }
                let address = UInt(bitPattern: object)
                pins[address, default: 0] += 1
                guard let target = add(address, depth: vertex.depth + 1) else {
                    release(object)
                    continue
                }
                loaded.append((target, object))
                let weak = FoundReference(
                    target: address, kind: .capture, path: "", function: nil, offset: Int(slot.address - vertex.address), isExact: true,
                    isWeak: true)
                result.edges.append(Edge(from: index, to: target, reference: weak))
            }
        }
        /// Reads what was loaded from weak references, then lets it go.
        func readLoaded() {
            while let (index, object) = loaded.popLast() {
                explore(index)
                release(object)
            }
        }
        for root in held {
            guard let index = add(root.address, depth: 0) else { continue }
            if let entity = root.entity { result.entities[root.address] = entity }
            explore(index)
            readLoaded()
        }
        for root in roots {
            guard let object = root.load() else { continue }
            let address = UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
            pins[address, default: 0] += 1
            if let index = add(address, depth: 0) {
                if let entity = root.entity { result.entities[address] = entity }
                explore(index)
                readLoaded()
            }
            pins[address, default: 1] -= 1
            withExtendedLifetime(object) {}
        }
        if let allocations {
            result.usedAllocationTable = true
            result.allocationCandidates = allocations.count
            let firstWords = Memory.words(at: allocations.map(\.address))
            for (entry, word) in zip(allocations, firstWords) where word == entry.metadata {
                guard let index = add(entry.address, depth: 0) else { continue }
                explore(index)
                readLoaded()
            }
        }
        var next = 0
        while next < queue.count {
            explore(queue[next])
            readLoaded()
            next += 1
        }
        return result
    }

    /// Reads an object's header and metadata; `nil` if it is not a heap object the walk
    /// knows, one on its way out, or one not worth reporting (the tracer's own, or library
    /// storage that holds no references).
    private func makeVertex(_ address: UInt, depth: Int, pins: [UInt: Int]) -> Vertex? {
        guard Memory.isPlausibleObjectAddress(address), let isa = Memory.word(at: address) else { return nil }
        let kind = HeapObjectKind.of(isa: isa)
        let typeName: String
        let category: HeapCategory
        switch kind {
        case .notAnObject: return nil
        case .instance(let layout):
            guard let kind = layout.category else { return nil }
            if kind == .library || kind == .storage, !layout.mayHoldReferences { return nil }
            typeName = layout.typeName
            category = kind
        case .context:
            // A closure's context, or the compiler's box for a captured `var`: both list
            // their contents the same way; the reference to one says which it is.
            typeName = "a closure context"
            category = .closureContext
        case .genericBox(let boxed):
            typeName = "a box for \(boxed.typeName)"
            category = .box
        case .errorBox:
            typeName = "an error's box"
            category = .box
        }
        let object = UnsafeMutableRawPointer(bitPattern: address)!
        guard Self.hasSoundRefCounts(address), !swift_isDeallocating(object) else { return nil }
        let count = Int(swift_retainCount(object)) - (pins[address] ?? 0)
        return Vertex(address: address, typeName: typeName, category: category, retainCount: count, depth: depth, metadata: isa)
    }

    /// Whether the object's reference counts can be read by the runtime without faulting:
    /// counts kept in a side table need a side table that points back at the object. (A
    /// word a conservative scan met, or an object freed meanwhile, may hold anything.)
    private static func hasSoundRefCounts(_ address: UInt) -> Bool {
        guard let counts = Memory.word(at: address + 8) else { return false }
        // Inline counts (the top bit clear), or the immortal pattern: read in place.
        guard counts >> 63 == 1, counts & 0xFFFF_FFFF != 0xFFFF_FFFF else { return true }
        let sideTable = counts << 3
        return Memory.isPlausibleObjectAddress(sideTable) && Memory.word(at: sideTable) == address
    }

    /// Reads the metadata words of many new objects in one system call, so that checking
    /// each one costs no call of its own.
    private func prefetchMetadata(of targets: [UInt], known: [UInt: Int]) {
        let unknown = targets.filter { known[$0] == nil && Memory.isPlausibleObjectAddress($0) }
        guard unknown.count > 1 else { return }
        for case let isa? in Memory.words(at: unknown) { _ = HeapObjectKind.of(isa: isa) }
    }
}
