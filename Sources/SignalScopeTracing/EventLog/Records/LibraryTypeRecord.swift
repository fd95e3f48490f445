import SignalScope

/// `libraryType` (kind 29, format 3.5): what a library calls a node's or a subscriber's type,
/// and the part it plays (``LibraryType``), written after the `node` or `subscribe` record
/// by an adapter that says (SignalScope's own runtime does not: its nodes' kinds and names
/// are its own words already).
struct LibraryTypeRecord: EventRecord {
    static let kind: UInt8 = 29
    static let name = "libraryType"

    /// A ``LiveEntityCode``: a node, or a subscription (its subscriber).
    var entityKind: UInt8 = 0
    var entity: UInt64 = 0
    var typeName: UInt32 = 0
    var role: UInt32 = 0

    init() {}

    init(node: NodeID, typeName: UInt32, role: UInt32) {
        (entityKind, entity, self.typeName, self.role) = (LiveEntityCode.node.rawValue, node.rawValue, typeName, role)
    }

    init(subscription: SubscriptionID, typeName: UInt32, role: UInt32) {
        (entityKind, entity, self.typeName, self.role) = (LiveEntityCode.subscription.rawValue, subscription.rawValue, typeName, role)
    }

    @inline(__always) mutating func fields(_ visitor: inout some RecordFieldVisitor) {
        visitor.visit(&entityKind, "entityKind")
        visitor.zeros(7)
        visitor.visit(&entity, "entity")
        visitor.visit(&typeName, "typeName")
        visitor.visit(&role, "role")
    }

    func event(strings: LogStrings) -> TraceEvent? {
        guard let described = LiveEntityCode(rawValue: entityKind)?.entity(entity) else { return nil }
        return .extended(
            ExtendedEvent(
                LibraryTyped(
                    entity: described,
                    type: LibraryType(name: strings.string(typeName), role: LibraryRole(rawValue: strings.string(role))))))
    }
}

/// A node or a subscriber in its library's own words: the `libraryType` record's event.
public struct LibraryTyped: TraceEventPayload {
    /// The node, or the subscription whose subscriber it is.
    public let entity: TraceEntity
    public let type: LibraryType

    public var subscription: SubscriptionID? { if case .subscription(let id) = entity { id } else { nil } }
    public var name: String { "library-type" }
    public var exportedFields: [(key: String, value: String)] { [("type", type.name), ("role", type.role.rawValue)] }
}

extension Trace {
    /// What each node and subscriber is in its library's own words, for those an adapter
    /// described (``LibraryType``).
    public var libraryTypes: [TraceEntity: LibraryType] {
        var types: [TraceEntity: LibraryType] = [:]
        for record in extendedEvents {
            if case .extended(let event) = record.event, let typed = event.payload as? LibraryTyped { types[typed.entity] = typed.type }
        }
        return types
    }
}
