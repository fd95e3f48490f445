import SignalScope
import SignalScopeHeap

/// `retained` (kind 23): an object the program said should be freed by a deadline
/// (`Tracer.expectDeallocation`) was still alive then, and the chain of strong references
/// that held it, from a heap snapshot taken at that moment (mid-run, or the closing one).
struct RetainedRecord: EventRecord {
    static let kind: UInt8 = 23
    static let name = "retained"

    var watch: UInt64 = 0
    var target: UInt64 = 0
    /// The object's address, xor-ed with ``HeapObjectRecord/addressKey``.
    var targetAddress: UInt64 = HeapObjectRecord.addressKey
    var typeName: UInt32 = 0
    var reason: UInt32 = 0
    var file: UInt32 = 0
    var function: UInt32 = 0
    var line: UInt32 = 0
    /// Bit 0: the snapshot was taken while the program ran (else: the closing one); bit 1:
    /// nothing outside holds the chain (``RetainedObject/isCycle``); bit 2: the chain's
    /// first object is held besides only by words a conservative scan read; bit 3: the walk
    /// did not reach the object; bit 4: the chain's first object is held from outside the
    /// snapshot (a global, a stack); bit 5: the snapshot did not see the whole heap; bit 6
    /// (format 3.4): the chain's first object's counts follow (``startRetainCount``), from
    /// which a reader judges what bits 2 and 4 say, and which it reads instead of them.
    var flags: UInt8 = 0
    var withinNanoseconds: UInt64 = 0
    var links: [Link] = []
    /// How long after the deadline the snapshot was taken, in nanoseconds (format 3.1).
    var lateNanoseconds: UInt64 = 0
    /// The chain's first object's strong retain count, and the strong references to it the
    /// walk read exactly and by a conservative scan (format 3.4, with flag bit 6).
    var startRetainCount: UInt64 = 0
    var startExactReferences: UInt64 = 0
    var startInexactReferences: UInt64 = 0

    static let hasStartCounts: UInt8 = 1 << 6

    /// One strong reference of the chain, with what its holder is.
    struct Link: RecordFields {
        /// The holder's address, xor-ed with ``HeapObjectRecord/addressKey``.
        var address: UInt64 = HeapObjectRecord.addressKey
        var typeName: UInt32 = 0
        /// A ``TraceHeap/Category`` code.
        var category: UInt8 = 0
        /// As ``HeapObjectRecord/entityKind``.
        var entityKind: UInt8 = 0
        var entityID: UInt64 = 0
        var reference = ReferenceRecord()

        @inline(__always) mutating func fields(_ visitor: inout some RecordFieldVisitor) {
            visitor.visit(&address, "address")
            visitor.visit(&typeName, "typeName")
            visitor.visit(&category, "category")
            visitor.visit(&entityKind, "entityKind")
            visitor.zeros(2)
            visitor.visit(&entityID, "entityID")
            reference.fields(&visitor)
        }
    }

    @inline(__always) mutating func fields(_ visitor: inout some RecordFieldVisitor) {
        visitor.visit(&watch, "watch")
        visitor.visit(&target, "target")
        visitor.visit(&targetAddress, "targetAddress")
        visitor.visit(&typeName, "typeName")
        visitor.visit(&reason, "reason")
        visitor.visit(&file, "file")
        visitor.visit(&function, "function")
        visitor.visit(&line, "line")
        visitor.visit(&flags, "flags")
        visitor.zeros(3)
        visitor.visit(&withinNanoseconds, "within")
        visitor.list(&links, "linkCount", each: "link")
        visitor.appended(&lateNanoseconds, "late")
        visitor.appended(&startRetainCount, "startRetainCount")
        visitor.appended(&startExactReferences, "startExactReferences")
        visitor.appended(&startInexactReferences, "startInexactReferences")
    }

    func event(strings: LogStrings) -> TraceEvent? {
        var objects: [TraceHeap.Object] = []
        var chain: [TraceHeap.Reference] = []
        func object(
            _ id: UInt64, address: UInt64, typeName: UInt32, category: UInt8, entityKind: UInt8, entityID: UInt64
        ) -> TraceHeap.Object? {
            var record = HeapObjectRecord()
            (record.object, record.typeName, record.category) = (id, typeName, category)
            (record.entityKind, record.entityID, record.hiddenAddress) = (entityKind, entityID, address)
            guard case .heapObject(let object)? = record.event(strings: strings) else { return nil }
            return object
        }
        for link in links {
            guard
                let holder = object(
                    link.reference.from, address: link.address, typeName: link.typeName, category: link.category, entityKind: link.entityKind,
                    entityID: link.entityID),
                case .reference(let reference)? = link.reference.event(strings: strings)
            else { return nil }
            objects.append(holder)
            chain.append(reference)
        }
        guard let watched = object(target, address: targetAddress, typeName: typeName, category: TraceHeap.Category.user.rawValue, entityKind: EntityCode.none.rawValue, entityID: 0)
        else { return nil }
        if !objects.contains(where: { $0.id == watched.id }) { objects.append(watched) }
        let start =
            flags & Self.hasStartCounts != 0
            ? TraceHeap.Holding(
                retainCount: Int(clamping: startRetainCount), exactReferences: Int(clamping: startExactReferences),
                inexactReferences: Int(clamping: startInexactReferences))
            : nil
        return .extended(
            ExtendedEvent(
                RetainedObject(
                    watch: watch, target: watched.id, typeName: watched.typeName, reason: strings.string(reason),
                    site: strings.site(file: file, function: function, line: line), within: .nanoseconds(Int64(clamping: withinNanoseconds)),
                    late: .nanoseconds(Int64(clamping: lateNanoseconds)),
                    isMidRun: flags & 1 != 0, isCycle: flags & 2 != 0, wasNotReached: flags & 8 != 0,
                    // A log before format 3.4 carries the recorder's verdict in place of the counts.
                    onlyInexactHolders: start.map(\.isHeldOnlyByInexactWords) ?? (flags & 4 != 0),
                    isHeldFromOutside: start.map(\.isHeldFromOutside) ?? (flags & 16 != 0), start: start,
                    sawPartOfTheHeap: flags & 32 != 0, objects: objects, chain: chain)))
    }
}

/// An object that was still alive at the deadline its program gave it, and why: the
/// `retained` record's event.
public struct RetainedObject: TraceEventPayload {
    /// Which `Tracer.expectDeallocation` call this is, in the recording.
    public let watch: UInt64
    /// The object, among ``objects``.
    public let target: ObjectID
    public let typeName: String
    /// What the program said should have freed it (`"ProfileScreen dismissed"`).
    public let reason: String
    /// Where the program said so.
    public let site: TraceSite
    /// How long after that it should have been gone.
    public let within: Duration
    /// How long after that deadline the snapshot that proves it was taken: deadlines that
    /// pass together, or while another snapshot is taken, are judged together, as soon as a
    /// snapshot may be taken; for the closing snapshot, how long past it the recording ended
    /// (zero in logs before format 3.1, and for the closing snapshot before format 3.7).
    public let late: Duration
    /// Whether the snapshot that proves it was taken while the program ran.
    public let isMidRun: Bool
    /// Whether nothing outside holds ``chain``: its objects, and everything that holds them,
    /// are held only by one another (a cycle through the object, or one holding what holds it).
    public let isCycle: Bool
    /// Whether the walk did not reach the object at all.
    public let wasNotReached: Bool
    /// Whether the chain's first object (the object itself, when the chain is empty) is held,
    /// besides, only by words a conservative scan read.
    public let onlyInexactHolders: Bool
    /// Whether the chain's first object is held from outside what the walk reached: judged
    /// from ``start`` (``TraceHeap/Holding/isHeldFromOutside``) as the log is read.
    public let isHeldFromOutside: Bool
    /// What the snapshot counted of the chain's first object; `nil` for a cycle, an object
    /// the walk did not reach, and in a log before format 3.4, which wrote the verdicts instead.
    public let start: TraceHeap.Holding?
    /// Whether the snapshot did not see the whole heap (it stopped at its budget, could not
    /// read memory, or could not be taken): beyond what it reached, what holds what is not
    /// known, so "held from outside" and "not reached" may mean only that.
    public let sawPartOfTheHeap: Bool
    /// The objects the chain runs through, the object itself included, as the snapshot
    /// saw them (ids local to this chain).
    public let objects: [TraceHeap.Object]
    /// The strong references that held it, from the outermost holder to it; empty when
    /// nothing the walk reached holds it.
    public let chain: [TraceHeap.Reference]

    /// When an object judged mid-run was seen alive, as the announcement and the finding say
    /// it: `within` after its reason ("0.5 seconds after"), or, judged a tenth of a second or
    /// more late, when the snapshot was taken, with its deadline (", past its deadline of
    /// 0.001 seconds").
    public static func timing(within: Duration, late: Duration) -> (after: String, deadline: String) {
        guard late >= .milliseconds(100) else { return ("\(within) after", "") }
        return ("\((within + late).roundedToMilliseconds) after", ", past its deadline of \(within)")
    }

    /// When the closing snapshot saw an object alive, as the finding says it: "when recording
    /// ended, 2.1 seconds after" its reason, past its deadline (a log before format 3.7 gives
    /// no time: "when recording ended, after"), and nothing of a deadline for an object that
    /// had to be gone only by the end.
    public static func closingTiming(within: Duration, late: Duration) -> (after: String, deadline: String) {
        guard within > .zero else { return ("when recording ended, after", "") }
        let after = late > .zero ? "when recording ended, \((within + late).roundedToMilliseconds) after" : "when recording ended, after"
        return (after, ", past its deadline of \(within)")
    }

    public var name: String { "retained-object" }
    public var exportedFields: [(key: String, value: String)] {
        [("type", typeName), ("reason", reason), ("site", site.description), ("withinNanoseconds", "\(within.wholeNanoseconds)"), ("lateNanoseconds", "\(late.wholeNanoseconds)")]
    }

    /// The chain as a heap of its own, for describing it as any path is described.
    public var heap: TraceHeap {
        var heap = TraceHeap()
        heap.objects = Dictionary(objects.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        heap.references = chain
        heap.limits = .standard
        heap.index()
        return heap
    }
}
