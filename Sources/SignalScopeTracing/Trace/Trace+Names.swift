import SignalScope

/// The one naming service: what findings, the graph, the timeline and the report call a
/// node, a subscription, an object and a type.
extension Trace {
    /// What every output calls `node`: the operator or factory that made it (`map`,
    /// `subject`, `pipe`, `executing`), then the name given with `named(_:)`, quoted.
    public func name(of node: Node) -> String {
        Self.nodeName(factory: node.name, userName: node.userName)
    }

    /// ``name(of:)-(Node)`` from its parts, for a reader that streams records instead of
    /// keeping a `Trace` (an exporter).
    public static func nodeName(factory: String, userName: String?) -> String {
        userName.map { "\(factory) \"\($0)\"" } ?? factory
    }

    /// A node's caption in pictures, which have no path to say what holds it: its
    /// ``name(of:)-(Node)``, and for a node not named with `named(_:)`, the property that
    /// holds it (`property ProfileScreen.name`).
    public func title(of node: Node) -> String {
        guard node.userName == nil, let property = propertyName(of: node.id) else { return name(of: node) }
        return "\(node.name) \(property)"
    }

    /// What every output calls a subscription: `subscription #7`.
    public static func name(of subscription: SubscriptionID) -> String { "subscription #\(subscription.rawValue)" }

    /// What every output calls the disposable that ends a subscription.
    public static func name(ofDisposableOf subscription: SubscriptionID) -> String {
        "the disposable of \(name(of: subscription))"
    }

    /// The stored property that holds `node` in the closing snapshot, as `Type.property`
    /// (`ProfileScreen.name`): a user object's property that holds the node itself, or
    /// holds the runtime object that owns it (a `MutableProperty`, whose signal is the node).
    /// `nil` when the retain graph shows none (a local variable, a node gone by the end).
    /// When several properties hold it, the first object the walk reached names it.
    public func propertyName(of node: NodeID) -> String? {
        guard let object = heap.object(for: .node(node)) else { return nil }
        if let name = holdingProperty(of: object.id) { return name }
        // One step up: the runtime object that owns the node (not an entity itself).
        for reference in heap.references(to: object.id).sorted(by: { $0.from < $1.from }) where reference.isCounted {
            guard let owner = heap.objects[reference.from], owner.category == .runtime, owner.role == nil else { continue }
            if let name = holdingProperty(of: owner.id) { return name }
        }
        return nil
    }

    /// What to call `node` in pictures: the name given with `named(_:)`, else the property
    /// that holds it (``propertyName(of:)``), else `nil`.
    public func displayName(of node: NodeID) -> String? {
        nodes[node]?.userName ?? propertyName(of: node)
    }

    /// A type's name as every output shows it: `Module.Outer.Type<Swift.String>` as
    /// `Type<String>`, each qualified name (the generic arguments' too) by its last
    /// component, and `()` as `Void`. A type declared in a function is qualified by
    /// `(unknown context at $address).`, dropped with the rest.
    public static func shortTypeName(_ typeName: String) -> String {
        var name = Substring(typeName.replacingOccurrences(of: "()", with: "Void"))
        while let context = name.range(of: "(unknown context at "), let end = name[context.upperBound...].range(of: ").") {
            name.removeSubrange(context.lowerBound..<end.upperBound)
        }
        var result = ""
        var component = ""
        for character in name {
            if character == "." {
                component = ""
            } else if character.isLetter || character.isNumber || character == "_" {
                component.append(character)
            } else {
                result += component + String(character)
                component = ""
            }
        }
        return result + component
    }

    private func holdingProperty(of object: ObjectID) -> String? {
        for reference in heap.references(to: object).sorted(by: { $0.from < $1.from })
        where reference.isCounted && reference.kind == .storedProperty && !reference.path.isEmpty {
            guard let holder = heap.objects[reference.from], holder.category == .user else { continue }
            return "\(Self.shortTypeName(holder.typeName)).\(reference.path)"
        }
        return nil
    }
}
