/// `released` (kind 24): an object reported `retained` was freed later in the run (the
/// "retained, then released" case of a leak finder that watches objects).
struct ReleasedRecord: EventRecord {
    static let kind: UInt8 = 24
    static let name = "released"

    var watch: UInt64 = 0

    @inline(__always) mutating func fields(_ visitor: inout some RecordFieldVisitor) {
        visitor.visit(&watch, "watch")
    }

    func event(strings: LogStrings) -> TraceEvent? { .extended(ExtendedEvent(ReleasedObject(watch: watch))) }
}

/// A watched object reported retained that was freed later in the run: the `released`
/// record's event.
public struct ReleasedObject: TraceEventPayload {
    /// The `retained` record's watch.
    public let watch: UInt64

    public var name: String { "released-object" }
    public var exportedFields: [(key: String, value: String)] { [("watch", "\(watch)")] }
}
