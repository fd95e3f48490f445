import SignalScopeHeap
/// `reference` (kind 20): in the snapshot, a reference between two objects the heap walk
/// reached.
struct ReferenceRecord: EventRecord {
    static let kind: UInt8 = 20
    static let name = "reference"
    /// What `offset` holds when the word is not stored in the holder as such.
    static let none = UInt32.max

    var from: UInt64 = 0
    var to: UInt64 = 0
    /// The kind's code (``ReferenceKindCode``).
    var referenceKind: UInt8 = 0
    /// Bit 0: found by a conservative scan; bit 1: a weak reference; bit 2: a closure's
    /// context (the reference is a closure's, named or not).
    var flags: UInt8 = 0
    var path: UInt32 = 0
    var offset: UInt32 = 0
    /// An element's index; a dictionary value's key (a string id, 0: unknown).
    var element: UInt32 = 0
    /// String ids, 0 when not known; `closureLine` 0 when not known.
    var closureRole: UInt32 = 0
    var closureFile: UInt32 = 0
    var closureLine: UInt32 = 0
    var closureName: UInt32 = 0

    @inline(__always) mutating func fields(_ visitor: inout some RecordFieldVisitor) {
        visitor.visit(&from, "from")
        visitor.visit(&to, "to")
        visitor.visit(&referenceKind, "kind")
        visitor.visit(&flags, "flags")
        visitor.zeros(2)
        visitor.visit(&path, "path")
        visitor.visit(&offset, "offset")
        visitor.visit(&element, "element")
        visitor.visit(&closureRole, "closureRole")
        visitor.visit(&closureFile, "closureFile")
        visitor.visit(&closureLine, "closureLine")
        visitor.visit(&closureName, "closureName")
    }

    func event(strings: LogStrings) -> TraceEvent? {
        guard let kind = TraceHeap.ReferenceKind(code: referenceKind, index: { Int(element) }, key: { strings.optional(element) })
        else { return nil }
        let closure: TraceHeap.Closure? =
            flags & 4 == 0
            ? nil
            : TraceHeap.Closure(
                role: strings.optional(closureRole),
                site: closureFile == 0
                    ? nil
                    : strings.site(file: closureFile, function: closureName, line: closureLine),
                name: closureRole == 0 ? strings.optional(closureName) : nil)
        return .reference(
            TraceHeap.Reference(
                from: ObjectID(rawValue: from), to: ObjectID(rawValue: to), kind: kind, path: strings.string(path),
                offset: offset == Self.none ? nil : Int(offset), closure: closure, isExact: flags & 1 == 0, isWeak: flags & 2 != 0))
    }
}
