import SignalScope
import Testing

@testable import SignalScopeHeap
@testable import SignalScopeTracing

/// Reference kinds and runtime entities each have one code table (`HeapCodes.swift` in the
/// heap module, `EntityCode.swift` in the tracer), which the walk's wire, the recorder and
/// the reader share: every value comes back as it went, through the wire and through the log.
@Suite("Heap code tables", .timeLimit(.minutes(10)))
struct HeapCodesTests {
    static let kinds: [HeapReferenceKind] = [
        .storedProperty, .capture, .element(3), .key, .value(forKey: "name"), .value(forKey: nil), .boxedValue,
    ]
    static let entities: [TraceHeap.Role] = [
        .node(NodeID(rawValue: 4)), .subscription(SubscriptionID(rawValue: 5)), .disposable(SubscriptionID(rawValue: 6)), .command,
        .scheduledAction(nil), .scheduledAction(SubscriptionID(rawValue: 7)),
    ]

    @Test("Every reference kind and every entity comes back from the walk's wire as it went")
    func wireRoundTrip() throws {
        var result = HeapWalker.Result()
        for address in [UInt(0x1000), 0x2000] {
            result.index[address] = result.vertices.count
            result.vertices.append(HeapWalker.Vertex(address: address, typeName: "T", category: .user, retainCount: 1, depth: 0, metadata: 0))
        }
        for kind in Self.kinds {
            result.edges.append(HeapWalker.Edge(from: 0, to: 1, reference: FoundReference(
                target: 0x2000, kind: kind, path: "p", function: nil, offset: nil, isExact: true)))
        }
        for (index, entity) in Self.entities.enumerated() { result.entities[UInt(0x3000 + index)] = entity.tag }
        let decoded = try #require(WalkWire.decode(WalkWire.encode(result)))
        #expect(decoded.edges.map(\.reference.kind) == Self.kinds)
        #expect(decoded.entities == result.entities)
        let entities = Self.entities.indices.map { decoded.entities[UInt(0x3000 + $0)].flatMap(TraceHeap.Role.init(tag:)) }
        #expect(entities == Self.entities)
    }

    @Test("Every entity comes back from a heapObject record, and every reference kind's code reads as that kind in the log")
    func logRoundTrip() throws {
        let strings = LogStrings()
        strings.define(9, as: "name")
        for entity in Self.entities + [nil] as [TraceHeap.Role?] {
            let record = HeapObjectRecord(
                object: 1, address: 0x1000, typeName: 0, category: TraceHeap.Category.user.rawValue, exploration: 0, entity: entity,
                retainCount: 1, allocation: .unknown, allocationOrder: 0, freedWeakCaptures: 2,
                freedWeakReferent: 9)
            guard case .heapObject(let object)? = record.event(strings: strings) else { Issue.record("\(String(describing: entity))"); continue }
            #expect(object.role == entity)
            #expect(object.freedWeakCaptures == 2 && object.freedWeakReferent == "name")
        }
        for kind in Self.kinds {
            var record = ReferenceRecord()
            record.referenceKind = kind.code.rawValue
            switch kind {
            case .element(let index): record.element = UInt32(index)
            case .value(let key): record.element = key == nil ? 0 : 9
            default: break
            }
            guard case .reference(let reference)? = record.event(strings: strings) else { Issue.record("\(kind)"); continue }
            #expect(reference.kind == kind)
        }
    }
}
