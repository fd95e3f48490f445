import SignalScope
import SignalScopeTracing

/// What a strong reference is to the object that holds it, as a person would say it: in the
/// subscriber list of a signal, stored in a property of an object, run by a closure of a
/// subscription, an element of an array. The one vocabulary every output words a reference
/// in: a finding's path (``PathDescription``), its JSON (`relation`), and the report's
/// details panel (``phrase(holder:)``).
public enum HeapRelation: Sendable, Hashable {
    /// A signal keeps one of its own subscriptions in its subscriber list.
    case subscriberList
    /// A subscription keeps the signal it is to, as its source.
    case source
    /// A stored property of the holder, by its path (`state.owner`; empty for the value
    /// itself).
    case property(String)
    /// A closure the holder keeps: the reference is the closure's context. `property` is the
    /// stored property of a library's object that keeps a closure the runtime gave no role (a
    /// Combine sink's `receiveValue`), which the library's users know it by.
    case closure(TraceHeap.Closure, property: String?)
    /// A value a closure's context captured (or a captured `var`'s box holds), by the name
    /// the capture had when known; `weak` for a `[weak x]` capture, which keeps nothing alive.
    case capture(String, weak: Bool)
    /// The element at this index of an array, or the `n`th of a set or deque.
    case element(Int)
    /// A dictionary's key.
    case key
    /// A dictionary's value, with its key when it is a small string or an integer.
    case value(forKey: String?)
    /// A box's value (an existential's, an error's, an indirect case's).
    case boxedValue

    /// What `reference` is to its holder in `heap`, whose subscriptions `trace` knows.
    public init(_ reference: TraceHeap.Reference, in trace: Trace) {
        let holder = trace.heap.objects[reference.from]?.role
        let target = trace.heap.objects[reference.to]?.role
        if case .node(let node)? = holder, case .subscription(let subscription)? = target, trace.subscriptions[subscription]?.node == node {
            self = .subscriberList
            return
        }
        if let closure = reference.closure {
            let keptByLibrary = closure.role == nil && reference.kind == .storedProperty
                && trace.heap.objects[reference.from]?.category == .runtime
            self = .closure(closure, property: keptByLibrary ? reference.path.split(separator: ".").last.map(String.init) : nil)
            return
        }
        switch reference.kind {
        case .storedProperty:
            if case .subscription? = holder, reference.path == Subscriber<Never>.sourcePropertyName {
                self = .source
            } else {
                self = .property(reference.path)
            }
        case .capture: self = .capture(reference.path, weak: reference.isWeak)
        case .element(let index): self = .element(index)
        case .key: self = .key
        case .value(let key): self = .value(forKey: key)
        case .boxedValue: self = .boxedValue
        }
    }

    /// Its name in the JSON findings: `subscriberList`, `source`, `property`, `closure`,
    /// `capture`, `element`, `key`, `value`, `boxedValue`.
    public var name: String {
        switch self {
        case .subscriberList: "subscriberList"
        case .source: "source"
        case .property: "property"
        case .closure: "closure"
        case .capture: "capture"
        case .element: "element"
        case .key: "key"
        case .value: "value"
        case .boxedValue: "boxedValue"
        }
    }

    /// The relation seen from what is held, followed by its holder's name (`holder`): `in the
    /// subscriber list of map (File.swift:12)`, `stored in property query of SearchViewModel`,
    /// `captured by the next closure (File.swift:19) of subscription #7`: how the report's
    /// details panel lists who holds an object.
    public func phrase(holder: FindingStep) -> FindingStep {
        switch self {
        case .subscriberList: "in the subscriber list of \(holder)"
        case .source: "the source of \(holder)"
        case .property(let path) where path.isEmpty: "held by \(holder)"
        case .property(let path): "stored in property \(path) of \(holder)"
        case .closure(let closure, let property): "captured by \(Self.closureWords(closure, property: property, isFirst: false)) of \(holder)"
        case .capture(let name, let weak):
            "\(weak ? "referred to weakly" : "captured")\(name.isEmpty ? "" : " as \(name)") by \(holder)"
        case .element(let index): "element \(index) of \(holder)"
        case .key: "a key of \(holder)"
        case .value(let key?): "the value for key \(key) of \(holder)"
        case .value(nil): "a value of \(holder)"
        case .boxedValue: "boxed in \(holder)"
        }
    }

    /// A closure: `its next closure (File.swift:14)` (the first of a path's line: the
    /// holder's own), `the predicate (File.swift:19)`; one a library's object keeps by its
    /// property, `the receiveValue closure (File.swift:21)`; any other by its name, `closure #1
    /// in Screen.init()`.
    static func closureWords(_ closure: TraceHeap.Closure, property: String? = nil, isFirst: Bool) -> FindingStep {
        let site: FindingStep = closure.site.map { " (\($0))" } ?? ""
        if let role = closure.role {
            return "\(isFirst ? "its" : "the") \(role)\(site)"
        }
        if let property {
            return "\(isFirst ? "its" : "the") \(property) closure\(site)"
        }
        return "\(closure.name ?? "a closure")\(site)"
    }
}
