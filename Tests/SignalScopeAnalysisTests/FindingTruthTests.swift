import CTracingSupport
@testable import LeakCorpus
import SignalScopeTools
@testable import SignalScopeTracing
import Testing

/// A finding must never state something false: every reference its path describes is checked
/// against the live heap after the scenario, without the walker's layout decoding. The
/// objects a leak runs through are still alive then and for good (the scenarios prove it with
/// weak references), so their memory can be read, in the suite's one run of the corpus.
extension LeakCorpusTests {
    @Test("Every step of every corpus finding's path is true of the live heap")
    func everyStepIsTrue() throws {
        var checked = 0
        for (name, outcome) in Self.outcomes {
            let heap = outcome.trace.heap
            for finding in outcome.findings {
                for reference in finding.evidence {
                    let holder = try #require(heap.objects[reference.from]), target = try #require(heap.objects[reference.to])
                    #expect(
                        Self.holds(UInt(holder.address), UInt(target.address), at: reference.offset),
                        "\(name): \(holder.typeName) does not hold \(target.typeName) as \(reference.kind) \(reference.path)")
                    // A stored closure's reference is to its context, and a collection's to its
                    // storage, which reflection does not show.
                    if holder.category == .user, reference.kind == .storedProperty, reference.closure == nil,
                        target.category != .storage
                    {
                        #expect(
                            Self.storedProperty(reference.path, of: UInt(holder.address)) == UInt(target.address),
                            "\(name): \(holder.typeName).\(reference.path) is not \(target.typeName)")
                    }
                    checked += 1
                }
            }
        }
        #expect(checked > 100, "the corpus's findings prove themselves with references")
    }

    /// Whether the object at `holder` holds a pointer to `target`: at `offset` when the walk
    /// said where, anywhere in its heap block when it did not (an enum's payload, read
    /// through a copy). A multi-payload enum keeps its tag in a pointer's spare bits.
    static func holds(_ holder: UInt, _ target: UInt, at offset: Int?) -> Bool {
        func pointsAtTarget(_ word: UInt) -> Bool { word == target || word & 0x0000_7FFF_FFFF_FFF8 == target }
        if let offset { return Memory.word(at: holder + UInt(offset)).map(pointsAtTarget) ?? false }
        let size = signalscope_heap_block_size(UnsafeMutableRawPointer(bitPattern: holder)!)
        return stride(from: 0, to: size, by: 8).contains { Memory.word(at: holder + UInt($0)).map(pointsAtTarget) ?? false }
    }

    /// The object a user object's stored property (`a.b`, through structs and tuples) holds,
    /// as reflection sees it.
    static func storedProperty(_ path: String, of holder: UInt) -> UInt? {
        let object = Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: holder)!).takeUnretainedValue()
        var value: Any = object
        for label in path.split(separator: ".") {
            var mirror: Mirror? = Mirror(reflecting: value)
            var found: Any?
            while let current = mirror, found == nil {
                found = current.children.first { $0.label == String(label) || $0.label == ".\(label)" }?.value
                mirror = current.superclassMirror
            }
            guard let next = found else { return nil }
            value = next
        }
        // An optional's payload, or the object itself.
        if let unwrapped = Mirror(reflecting: value).children.first, Mirror(reflecting: value).displayStyle == .optional {
            value = unwrapped.value
        }
        guard type(of: value) is AnyClass else { return nil }
        return UInt(bitPattern: Unmanaged.passUnretained(value as AnyObject).toOpaque())
    }
}
