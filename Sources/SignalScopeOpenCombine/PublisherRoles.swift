#if OpenCombineAdapter
import OpenCombine
@_spi(Locking) import SignalScope

/// What an OpenCombine publisher is in the signal graph: its kind, the name a Combine user
/// calls it by, and its traits, from its type. Publishers are values without identity, so the
/// type is all there is to go by; a publisher type this table does not know (the program's
/// own) is a signal with no traits, which no rule judges by what it cannot know.
enum PublisherRoles {
    struct Role: Sendable {
        let kind: NodeKind
        let name: String
        let traits: NodeTraits
        /// Whether what it sends is work of its own, never a value passed on from a source: a
        /// `Future`'s result, which its promise produced.
        var sendsItsOwnWork = false
        /// Its type in OpenCombine's words, and the part it plays; `nil` for the program's own.
        var library: LibraryType?
        /// For an operator that delivers on a scheduler, how what it delivers follows from
        /// what it was given, when that can be told (``SchedulerHop``).
        var hop: SchedulerHop.Order?
    }

    /// The role of `publisher`: for an `AnyPublisher`, whose subscribe passes its subscriber
    /// straight to the publisher it wraps (OpenCombine reports no subscribe of that one), the
    /// wrapped publisher's role.
    static func role<Upstream: OpenCombine.Publisher>(of publisher: Upstream) -> Role {
        if let erased = publisher as? any CarriesIdentity, erased.identityIsBox, let box = PublisherIdentity.object(of: publisher) {
            return roles.value(for: ObjectIdentifier(type(of: box))) {
                // The box is `PublisherBox<Wrapped>`: its one generic argument is the wrapped type.
                let boxType = String(reflecting: type(of: box))
                guard let open = boxType.firstIndex(of: "<"), boxType.last == ">" else { return role(ofTypeNamed: String(reflecting: Upstream.self)) }
                return role(ofTypeNamed: String(boxType[boxType.index(after: open)..<boxType.index(before: boxType.endIndex)]))
            }
        }
        return roles.value(for: ObjectIdentifier(Upstream.self)) { role(ofTypeNamed: String(reflecting: Upstream.self)) }
    }

    /// Roles found, by type: a type's name is made once, not at every subscribe
    /// (`String(reflecting:)` of a chain's generic type costs more than the rest of it).
    private static let roles = LockedValue<[ObjectIdentifier: Role]>([:])

    /// The role of a publisher whose type `String(reflecting:)` names `reflected`.
    private static func role(ofTypeNamed reflected: String) -> Role {
        let (module, base) = names(of: reflected)
        guard module == "OpenCombine" else { return Role(kind: .signal, name: base, traits: []) }
        if var known = known[base] {
            known.library = LibraryType(name: base, role: known.kind == .signal ? .source : .subject)
            return known
        }
        if base.hasPrefix("Publishers.") {
            let operatorName = String(base.dropFirst("Publishers.".count))
            let hop = schedulerHops[operatorName]
            return Role(
                kind: .operator, name: lowercasedFirst(operatorName), traits: bounding.contains(operatorName) ? .bounding : [],
                library: LibraryType(name: base, role: hop == nil ? .operator : .schedulerHop), hop: hop ?? nil)
        }
        return Role(kind: .signal, name: base, traits: [], library: LibraryType(name: base, role: .source))
    }

    /// The type of `Downstream` in OpenCombine's words (or the program's, for its own
    /// subscriber), and the part it plays.
    static func subscriberType<Downstream: OpenCombine.Subscriber>(of _: Downstream.Type) -> LibraryType {
        subscriberTypes.value(for: ObjectIdentifier(Downstream.self)) { subscriberType(named: String(reflecting: Downstream.self)) }
    }

    private static let subscriberTypes = LockedValue<[ObjectIdentifier: LibraryType]>([:])

    private static func subscriberType(named reflected: String) -> LibraryType {
        let (module, base) = names(of: reflected)
        guard module == "OpenCombine" else { return LibraryType(name: base, role: .subscriber) }
        switch base {
        case "Subscribers.Sink": return LibraryType(name: base, role: .sink)
        case "Subscribers.Assign": return LibraryType(name: base, role: .assignment)
        default: return LibraryType(name: base, role: .subscriber)
        }
    }

    /// The operators that move work to a scheduler, with how what they deliver follows from
    /// what they were given where that can be told from outside. A `throttle` drops or keeps
    /// values by its demand and its window, which OpenCombine does not report; `subscribe(on:)`
    /// and `timeout` deliver values where they come.
    private static let schedulerHops: [String: SchedulerHop.Order?] = [
        "ReceiveOn": .inOrder, "Delay": .inOrder, "Debounce": .latest, "SubscribeOn": nil, "Throttle": nil, "Timeout": nil,
    ]

    /// The publishers that are not operators, by the name of their type in OpenCombine.
    private static let known: [String: Role] = [
        // Keeps its subscribers in its conduit list until it is sent a completion.
        "PassthroughSubject": Role(kind: .subject, name: "PassthroughSubject", traits: .hot),
        "CurrentValueSubject": Role(kind: .behaviorSubject, name: "CurrentValueSubject", traits: .hot),
        // A `@Published` property's publisher finishes when the object that owns it goes.
        "Published.Publisher": Role(kind: .property, name: "Published", traits: [.hot, .completesByItself]),
        // Runs its factory again for every subscriber: its work repeats.
        "Deferred": Role(kind: .signal, name: "Deferred", traits: .cold),
        // Runs its work once, when it is made, and completes by itself when its promise is kept.
        "Future": Role(kind: .signal, name: "Future", traits: .completesByItself, sendsItsOwnWork: true),
        "Just": Role(kind: .signal, name: "Just", traits: []),
        "Empty": Role(kind: .signal, name: "Empty", traits: []),
        "Fail": Role(kind: .signal, name: "Fail", traits: []),
        "Record": Role(kind: .signal, name: "Record", traits: []),
    ]

    /// The operators that end their subscriptions by themselves, whatever their upstream
    /// does (`first`, `prefix`, `timeout`...).
    private static let bounding: Set<String> = [
        "First", "FirstWhere", "TryFirstWhere", "Output", "PrefixWhile", "TryPrefixWhile", "PrefixUntilOutput", "Timeout",
    ]

    /// A type's module and its name within the module, without generic arguments:
    /// `("OpenCombine", "Publishers.Map")`.
    private static func names(of reflected: String) -> (module: String, base: String) {
        var depth = 0
        var base = ""
        for character in reflected {
            if character == "<" { depth += 1 } else if character == ">" { depth -= 1 } else if depth == 0 { base.append(character) }
        }
        guard let dot = base.firstIndex(of: ".") else { return ("", base) }
        return (String(base[..<dot]), String(base[base.index(after: dot)...]))
    }

    private static func lowercasedFirst(_ name: String) -> String {
        name.prefix(1).lowercased() + name.dropFirst()
    }
}
#endif
