import CTracingSupport
import DequeModule
import Foundation
import Testing

@testable import SignalScopeHeap
@testable import SignalScopeTracing

/// The walk reads blocks the allocation table names, and a block freed since it was
/// recorded may hold anything by the time it is read: a collection's count, a dictionary's
/// pointers to its own tail, a closure's captured metadata can be any word. Reading such an
/// object may find nothing, but never traps (a trap in the copy that walks loses the whole
/// snapshot: seen on a loaded machine, an array's count times its stride overflowed).
@Suite(.timeLimit(.minutes(10))) struct HostileObjectTests {
    final class Element: Hashable {
        static func == (lhs: Element, rhs: Element) -> Bool { lhs === rhs }
        func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    }

    enum State {
        case idle
        case loaded(Element, String)
    }

    final class Screen {
        var title = "a title longer than fifteen bytes"
        var elements: [Element] = [Element(), Element()]
        var byName: [String: Element] = ["a": Element()]
        var set: Set<Element> = [Element()]
        var anything: Any = Element()
        var action: () -> Void = {}
        var state = State.loaded(Element(), "loaded")
        weak var parent: Element?
    }

    /// Serves the object's bytes with one word replaced; anything else is read through the
    /// kernel, as the walk reads it.
    struct OneWordReplaced: MemoryAccess {
        let object: UInt
        let bytes: [UInt8]

        func bytes(at address: UInt, count: Int) -> Bytes? {
            guard address >= object, count >= 0, address - object <= UInt(bytes.count), count <= bytes.count - Int(address - object) else {
                return CheckedMemory().bytes(at: address, count: count)
            }
            let start = Int(address - object)
            return Bytes(base: address, storage: Array(bytes[start..<(start + count)]))
        }

        func word(at address: UInt) -> UInt? {
            bytes(at: address, count: 8).map { $0.load(at: 0, as: UInt.self) }
        }
    }

    /// Words a reused block might hold where a count, a scale or a pointer was.
    private static func hostileWords(replacing original: UInt, in object: UInt) -> [UInt] {
        [0, 1, 7, 0x8000_0000, UInt(UInt32.max), 1 << 39, 1 << 62, UInt(Int.max), 1 << 63, .max, .max - 7,
         object &+ 8, object &+ (1 << 40), object &- 8, original &+ 8, original ^ (1 << 62)]
    }

    /// Reads the object at `address` once for every word of its block (past its metadata) replaced by every
    /// hostile word: no read traps, and the unchanged object still reads.
    private static func expectNoTrap(at address: UInt, _ name: Comment) {
        let size = min(signalscope_heap_block_size(UnsafeMutableRawPointer(bitPattern: address)!), 1024)
        let original = Array(UnsafeRawBufferPointer(start: UnsafeRawPointer(bitPattern: address), count: size))
        let isa = original.withUnsafeBytes { $0.load(as: UInt.self) }
        #expect(ObjectReader.read(address, isa: isa, memory: OneWordReplaced(object: address, bytes: original)) != nil, name)
        var reads = 0
        for offset in Swift.stride(from: 8, to: size - 7, by: 8) {
            let word = original.withUnsafeBytes { $0.load(fromByteOffset: offset, as: UInt.self) }
            for hostile in hostileWords(replacing: word, in: address) {
                var bytes = original
                bytes.withUnsafeMutableBytes { $0.storeBytes(of: hostile, toByteOffset: offset, as: UInt.self) }
                _ = ObjectReader.read(address, isa: isa, memory: OneWordReplaced(object: address, bytes: bytes))
                reads += 1
            }
        }
        #expect(reads > 0, name)
    }

    @Test("Every object a screen's walk reaches (the screen, its strings, collections' storage, boxes, a closure's context), with any word replaced, reads without trapping")
    func everyObjectReached() {
        let screen = Screen()
        let captured = Element()
        let flag = Int.random(in: 0..<2)
        screen.action = { [captured] in _ = (captured, flag) }
        screen.parent = captured
        var deque = Deque((0..<5).map { _ in Element() })
        deque.removeFirst()
        deque.append(Element())
        screen.anything = deque
        let root = WeakReference(screen)
        let result = HeapWalker(limits: .standard).walk(roots: [HeapWalker.Root(load: { root.object })])
        let names = result.vertices.map(\.typeName)
        for kind in ["_ContiguousArrayStorage", "_DictionaryStorage", "_SetStorage", "Deque"] {
            #expect(names.contains { $0.contains(kind) }, "the walk reaches \(kind): \(names)")
        }
        #expect(result.vertices.contains { $0.category == .closureContext }, "\(names)")
        for vertex in result.vertices {
            Self.expectNoTrap(at: vertex.address, "\(vertex.typeName)")
        }
        withExtendedLifetime((screen, deque)) {}
    }
}
