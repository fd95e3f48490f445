import CTracingSupport
import Synchronization
import Glibc
@_spi(Locking) import SignalScope

/// Runs the closing heap walk on a frozen copy of the program, so that it never races the
/// program's threads.
///
/// Reading a heap that other threads change gives retain counts and references from
/// different moments (an object can look unreferenced while a reference to it moves), and
/// loading a weak reference another thread is freeing crashes. So the walk runs in a child
/// made with `fork`: a copy-on-write image of the whole process at one instant, with one
/// thread, which nothing else changes. The child walks, writes what it found into an
/// anonymous file and exits; the program's other threads run on meanwhile, and the
/// recording's thread waits for the child (heap-dumping tools on Android do the same, so
/// that the app never stops). The cost the program sees is `fork` itself: copying page
/// tables (`docs/performance.md` measures it).
///
/// A lock another thread held at the fork stays held in the child. The child touches only
/// what the walk needs (the allocation table, forked with its lock held, so never half
/// changed; the runtime's metadata caches, whose locks are held for moments), and the parent
/// watches it (``WatchedChild``): a child blocked on such a lock is killed and the walk
/// tried again in a new child. When no child can be made (a sandbox forbids `fork`), a process with one thread is
/// walked in place, which is just as frozen; with more threads no walk is made, and the
/// trace says why rather than risk a crash or a false proof.
package struct FrozenWalk {
    package let walker: HeapWalker
    /// Objects of the allocation table allocated at this time or later are walked from (0:
    /// none are)...
    package let allocatedSince: UInt64
    /// ...when the recording owns them: for a recording of some code, those its code
    /// allocated, so that tests running alongside never walk each other's objects.
    package let owns: (signalscope_allocation) -> Bool
    /// How the child that walks is watched.
    var watch = WatchedChild()
    /// How many children to try before giving up.
    var attempts = 3

    package init(walker: HeapWalker, allocatedSince: UInt64, owns: @escaping (signalscope_allocation) -> Bool) {
        self.walker = walker
        self.allocatedSince = allocatedSince
        self.owns = owns
    }

    /// Walks from `roots` and from every object in the allocation table.
    ///
    /// The roots are loaded (strongly) here, in the program, before the fork: the child
    /// sees those references in its copy and leaves them out of the retain counts, and the
    /// program lets go of them as soon as the child exists.
    package func walk(roots: [HeapWalker.Root]) -> HeapWalker.Result {
        var reasons: [String] = []
        for _ in 0..<attempts {
            switch attempt(roots) {
            case .walked(let result):
                Self.excludingCopies { HeapObjectKind.learn(result.decodedMetadata) }
                return result
            case .retry(let reason): if !reasons.contains(reason) { reasons.append(reason) }
            case .abandoned(let reason): return Self.unwalked(because: [reason])
            case .cannotFork(let reason):
                guard signalscope_thread_count() == 1 else {
                    var result = HeapWalker.Result()
                    result.unwalkedReason = "no copy of the process could be made to walk its heap (fork failed: \(reason)) and other threads were running, whose changes the walk would race"
                    return result
                }
                return Self.load(roots) { held in walker.walk(roots: [], held: held, allocations: allocations(progress: nil)) }
            }
        }
        return Self.unwalked(because: reasons)
    }

    private static func unwalked(because reasons: [String]) -> HeapWalker.Result {
        var result = HeapWalker.Result()
        result.unwalkedReason = "the heap walk did not finish in a copy of the process (\(reasons.joined(separator: "; ")))"
        return result
    }

    /// Runs `body` with the roots loaded: held strongly, once each, until it returns. One
    /// recording at a time, so that no recording's copy of the process holds the strong
    /// references another loaded for itself (they would read as held from outside); the
    /// walks themselves, in their children, run side by side.
    private static func load<Result>(_ roots: [HeapWalker.Root], _ body: ([HeapWalker.HeldRoot]) -> Result) -> Result {
        momentaryReferences.withLock { _ in
            var loaded: [AnyObject] = []
            var held: [HeapWalker.HeldRoot] = []
            for root in roots {
                guard let object = root.load() else { continue }
                loaded.append(object)
                held.append(HeapWalker.HeldRoot(address: UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque()), entity: root.entity))
            }
            return withExtendedLifetime(loaded) { body(held) }
        }
    }

    private static let momentaryReferences = LockedValue(())

    /// Runs `body`, which takes locks a copy's walk takes too (the decoded layouts' tables),
    /// while no copy of the process is being made: a lock held by another thread at the fork
    /// stays held in the copy, whose walk then fails on it and is made again.
    package static func excludingCopies<Result>(_ body: () -> Result) -> Result {
        momentaryReferences.withLock { _ in body() }
    }

    private enum Attempt {
        case walked(HeapWalker.Result)
        /// Worth trying again in a new child.
        case retry(String)
        /// Not worth trying again: it would fail the same way, as slowly.
        case abandoned(String)
        case cannotFork(String)
    }

    private func attempt(_ roots: [HeapWalker.Root]) -> Attempt {
        // The program holds the roots only until the child exists.
        let started = Self.load(roots) { held in WatchedChild.start { progress in walkInChild(held: held, progress: progress) } }
        switch started {
        case .failure(let failure): return .cannotFork(failure.reason)
        case .success(let child):
            switch watch.wait(for: child) {
            case .finished(let bytes): return WalkWire.decode(bytes).map(Attempt.walked) ?? .retry("its result could not be read")
            case .failed(let reason): return .retry(reason)
            case .overran(let reason): return .abandoned(reason)
            }
        }
    }

    /// In the child: walks and encodes what it found.
    private func walkInChild(held: [HeapWalker.HeldRoot], progress: UnsafeMutablePointer<UInt64>) -> [UInt8] {
        signalscope_allocations_freeze_in_child(progress, allocatedSince)
        _ = signalscope_freeze_address_space()
        let allocations = allocations(progress: progress)
        var walker = walker
        walker.onProgress = { progress.pointee &+= 1 }
        var result = walker.walk(roots: [], held: held, allocations: allocations)
        result.decodedMetadata = HeapObjectKind.decoded
        return WalkWire.encode(result)
    }

    /// The entries of the allocation table from `allocatedSince` on that may still be objects
    /// and that the recording owns. Of several allocations at one address only the latest
    /// can be the object there now: an earlier one was freed, whatever took its place.
    /// - Parameter progress: Counted up as the table is read, for a parent that watches.
    func allocations(progress: UnsafeMutablePointer<UInt64>? = nil) -> [signalscope_allocation]? {
        guard allocatedSince != 0 else { return nil }
        typealias Collected = (progress: UnsafeMutablePointer<UInt64>?, entries: [signalscope_allocation])
        var collected: Collected = (progress, [])
        withUnsafeMutablePointer(to: &collected) { pointer in
            _ = signalscope_allocations_visit(allocatedSince, { batch, count, context in
                let collected = context!.assumingMemoryBound(to: Collected.self)
                collected.pointee.progress?.pointee &+= 1
                collected.pointee.entries += UnsafeBufferPointer(start: batch, count: count)
            }, pointer)
        }
        var latest: [UInt: signalscope_allocation] = [:]
        for entry in collected.entries where entry.time >= latest[entry.address]?.time ?? 0 { latest[entry.address] = entry }
        return latest.values.filter(owns).sorted { $0.address < $1.address }
    }
}

/// The walk's result as bytes, from the child to the parent.
enum WalkWire {
    static func encode(_ result: HeapWalker.Result) -> [UInt8] {
        var writer = Writer()
        writer.flags([result.objectLimitReached, result.depthLimitReached, result.memoryUnreadable, result.usedAllocationTable])
        writer.int(result.allocationCandidates)
        writer.int(result.vertices.count)
        for vertex in result.vertices {
            writer.word(vertex.address)
            writer.string(vertex.typeName)
            writer.byte(vertex.category.rawValue)
            writer.int(vertex.retainCount)
            writer.int(vertex.depth)
            writer.word(vertex.metadata)
            writer.byte(vertex.exploration.rawValue)
            writer.int(vertex.freedWeakCaptures.count)
            for referent in vertex.freedWeakCaptures { writer.string(referent) }
            writer.flags([vertex.allocatedBy != nil])
            if let allocator = vertex.allocatedBy {
                writer.word(UInt(allocator.thread))
                writer.word(allocator.task)
                writer.word(UInt(allocator.scope))
                writer.word(UInt(allocator.time))
            }
        }
        writer.int(result.edges.count)
        for edge in result.edges {
            writer.int(edge.from)
            writer.int(edge.to)
            let reference = edge.reference
            writer.word(reference.target)
            writer.byte(reference.kind.code.rawValue)
            switch reference.kind {
            case .element(let index): writer.int(index)
            case .value(let key):
                writer.flags([key != nil])
                if let key { writer.string(key) }
            case .storedProperty, .capture, .boxedValue, .key: break
            }
            writer.string(reference.path)
            writer.flags([reference.function != nil, reference.offset != nil, reference.isExact, reference.isWeak])
            if let function = reference.function { writer.word(function) }
            if let offset = reference.offset { writer.int(offset) }
        }
        writer.int(result.entities.count)
        for (address, entity) in result.entities {
            writer.word(address)
            writer.byte(entity.kind)
            writer.word(UInt(entity.id))
        }
        writer.int(result.decodedMetadata.count)
        for metadata in result.decodedMetadata { writer.word(metadata) }
        return writer.bytes
    }

    static func decode(_ bytes: [UInt8]) -> HeapWalker.Result? {
        var reader = Reader(bytes: bytes)
        var result = HeapWalker.Result()
        guard let flags = reader.flags(4), let candidates = reader.int(), let vertexCount = reader.int() else { return nil }
        (result.objectLimitReached, result.depthLimitReached, result.memoryUnreadable, result.usedAllocationTable) =
            (flags[0], flags[1], flags[2], flags[3])
        result.allocationCandidates = candidates
        for index in 0..<vertexCount {
            guard let address = reader.word(), let typeName = reader.string(), let category = reader.byte().flatMap(HeapCategory.init),
                let retainCount = reader.int(), let depth = reader.int(), let metadata = reader.word(),
                let exploration = reader.byte().flatMap(HeapWalker.Exploration.init), let freedCount = reader.int()
            else { return nil }
            var freedWeakCaptures: [String] = []
            for _ in 0..<freedCount {
                guard let referent = reader.string() else { return nil }
                freedWeakCaptures.append(referent)
            }
            guard let allocated = reader.flags(1) else { return nil }
            var allocator: HeapWalker.Allocator?
            if allocated[0] {
                guard let thread = reader.word(), let task = reader.word(), let scope = reader.word(), let time = reader.word()
                else { return nil }
                allocator = HeapWalker.Allocator(
                    thread: UInt32(truncatingIfNeeded: thread), task: task, scope: UInt64(scope), time: UInt64(time))
            }
            result.vertices.append(HeapWalker.Vertex(
                address: address, typeName: typeName, category: category, retainCount: retainCount, depth: depth,
                metadata: metadata, exploration: exploration, allocatedBy: allocator, freedWeakCaptures: freedWeakCaptures))
            result.index[address] = index
        }
        guard let edgeCount = reader.int() else { return nil }
        for _ in 0..<edgeCount {
            guard let from = reader.int(), let to = reader.int(), from < vertexCount, to < vertexCount,
                let target = reader.word(), let kindCode = reader.byte(),
                let kind = HeapReferenceKind(
                    code: kindCode, index: { reader.int() },
                    key: { reader.flags(1).flatMap { hasKey in hasKey[0] ? reader.string().map(Optional.some) : .some(nil) } }),
                let path = reader.string(), let flags = reader.flags(4)
            else { return nil }
            let function = flags[0] ? reader.word() : nil
            let offset = flags[1] ? reader.int() : nil
            result.edges.append(HeapWalker.Edge(from: from, to: to, reference: FoundReference(
                target: target, kind: kind, path: path, function: function, offset: offset, isExact: flags[2], isWeak: flags[3])))
        }
        guard let entityCount = reader.int() else { return nil }
        for _ in 0..<entityCount {
            guard let address = reader.word(), let kind = reader.byte(), let id = reader.word() else { return nil }
            result.entities[address] = HeapWalker.Tag(kind: kind, id: UInt64(id))
        }
        guard let decodedCount = reader.int() else { return nil }
        for _ in 0..<decodedCount {
            guard let metadata = reader.word() else { return nil }
            result.decodedMetadata.append(metadata)
        }
        return reader.isAtEnd ? result : nil
    }

    private struct Writer {
        var bytes: [UInt8] = []
        var strings: [String: Int] = [:]

        mutating func byte(_ value: UInt8) { bytes.append(value) }

        mutating func word(_ value: UInt) {
            withUnsafeBytes(of: UInt64(value).littleEndian) { bytes += $0 }
        }

        mutating func int(_ value: Int) { word(UInt(bitPattern: value)) }

        mutating func flags(_ values: [Bool]) {
            byte(values.enumerated().reduce(0) { $0 | ($1.element ? UInt8(1) << $1.offset : 0) })
        }

        /// A string the first time, its number after.
        mutating func string(_ value: String) {
            if let known = strings[value] {
                int(known)
                return
            }
            strings[value] = strings.count
            int(-1)
            let utf8 = Array(value.utf8)
            int(utf8.count)
            bytes += utf8
        }
    }

    private struct Reader {
        let bytes: [UInt8]
        var position = 0
        var strings: [String] = []

        var isAtEnd: Bool { position == bytes.count }

        mutating func byte() -> UInt8? {
            guard position < bytes.count else { return nil }
            defer { position += 1 }
            return bytes[position]
        }

        mutating func word() -> UInt? {
            guard position + 8 <= bytes.count else { return nil }
            defer { position += 8 }
            return bytes.withUnsafeBytes { UInt(UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: position, as: UInt64.self))) }
        }

        mutating func int() -> Int? { word().map { Int(bitPattern: $0) } }

        mutating func flags(_ count: Int) -> [Bool]? {
            byte().map { value in (0..<count).map { value & (1 << $0) != 0 } }
        }

        mutating func string() -> String? {
            guard let number = int() else { return nil }
            if number >= 0 { return number < strings.count ? strings[number] : nil }
            guard let count = int(), count >= 0, position + count <= bytes.count else { return nil }
            let value = String(decoding: bytes[position..<(position + count)], as: UTF8.self)
            position += count
            strings.append(value)
            return value
        }
    }
}
