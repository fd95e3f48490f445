/// Finds the objects an observer's closures strongly capture, with no annotations, when a
/// subscription stores them: what `capture` records report.
///
/// A Swift closure is two words: a function pointer and a context. The context is either
/// the one object the closure captures, or a heap block that lists its captures. From the
/// context the scan reads on through what closures keep their captures in (nested
/// closures' contexts, boxes, collections' storage) the way the heap walk does
/// (``ObjectReader``), and stops at class instances, which it reports once per strong
/// reference. Only references decoded exactly count: a word a conservative scan finds may
/// be stale, and the recorder keeps a (weak) reference to every object it reports, which
/// must never touch an object that is gone.
struct CaptureScanner {
    /// A strongly captured object.
    struct Captured: Hashable {
        let address: UInt
        let typeName: String
    }

    /// How many blocks deep the scan goes.
    static let maximumDepth = 4

    /// The objects a closure whose context is `context` strongly captures, in the order
    /// they were found, once per strong reference. `context` must be read from where the
    /// closure is stored.
    /// - Parameter isHeld: Whether the closure is certainly alive while the scan runs (it is
    ///   being stored on this thread), so that what it exactly refers to can be read
    ///   directly rather than through the kernel.
    static func strongCaptures(ofContext context: UnsafeRawPointer, isHeld: Bool) -> [Captured] {
        var found: [Captured] = []
        var visited: Set<UInt> = []
        var pending: [(address: UInt, depth: Int)] = [(UInt(bitPattern: context), 0)]
        while !pending.isEmpty {
            let (address, depth) = pending.removeFirst()
            guard Memory.isPlausibleObjectAddress(address),
                let isa = isHeld ? DirectMemory().word(at: address) : Memory.word(at: address)
            else { continue }
            switch HeapObjectKind.of(isa: isa) {
            case .notAnObject: continue
            case .instance(let layout) where layout.category == .user || layout.category == .runtime:
                found.append(Captured(address: address, typeName: layout.typeName))
                continue
            default:
                break
            }
            guard depth < maximumDepth, visited.insert(address).inserted else { continue }
            let contents =
                isHeld
                ? ObjectReader.read(address, isa: isa, memory: DirectMemory())
                : ObjectReader.read(address, isa: isa, memory: CheckedMemory())
            for reference in contents?.references ?? [] where reference.isExact && !reference.isWeak {
                pending.append((reference.target, depth + 1))
            }
        }
        return found
    }
}
