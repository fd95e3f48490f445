#if OpenCombineAdapter
import OpenCombine
import SignalScopeHeap

/// What makes two copies of a publisher value the same publisher. OpenCombine's publishers
/// are mostly values without identity, but some carry an object that every copy shares and
/// that a new value made by the same code does not: an `AnyPublisher`'s box, and a
/// `Deferred`'s factory's closure context.
enum PublisherIdentity {
    /// The object a publisher value is identified by, alive as long as some copy of the value
    /// is; `nil` for a value with none. A `Deferred` whose factory captures nothing has no
    /// context, and one whose factory captures a single object keeps that object as its
    /// context, which other values made by the same code share: no identity is better than
    /// merging two publishers into one.
    static func object<Upstream: OpenCombine.Publisher>(of publisher: Upstream) -> AnyObject? {
        guard let carrier = publisher as? any CarriesIdentity, let word = carrier.identityWord,
            let pointer = UnsafeRawPointer(bitPattern: word)
        else { return nil }
        let object = Unmanaged<AnyObject>.fromOpaque(pointer).takeUnretainedValue()
        guard carrier.identityIsBox || LiveObject.isClosureContext(object) else { return nil }
        return object
    }
}

extension PublisherIdentity {
    /// The functions a cold publisher may run as its work, for the tracer to name the line
    /// that wrote it (where the publisher was made): a `Deferred`'s factory, read from the
    /// value or, for an `AnyPublisher` wrapping one, from its box, which keeps the wrapped value
    /// after the object's header. Only for a publisher whose role is cold, which is a
    /// `Deferred`. Symbol tables are read once per function.
    static func workFunctions<Upstream: OpenCombine.Publisher>(of publisher: Upstream) -> [UInt] {
        guard let carrier = publisher as? any CarriesIdentity, let identity = carrier.identityWord else { return [] }
        let word = UInt(MemoryLayout<UInt>.size)
        // The caller holds the publisher, and so its box and its factory's context.
        return withExtendedLifetime(publisher) {
            let (function, context): (UInt, UInt)
            if carrier.identityIsBox {
                guard let wrapped = UnsafeRawPointer(bitPattern: identity + 2 * word) else { return [] }
                (function, context) = (wrapped.load(as: UInt.self), wrapped.load(fromByteOffset: Int(word), as: UInt.self))
            } else {
                (function, context) = withUnsafeBytes(of: publisher) { ($0.load(as: UInt.self), $0.load(fromByteOffset: Int(word), as: UInt.self)) }
            }
            return functions(of: function, context: context)
        }
    }

    /// The functions an operator was given (`map`'s transform, `filter`'s predicate), read
    /// from its value, for the tracer to name the line that applied it: where the closure was
    /// written. None for an operator given no closure (`receive(on:)`), which is located
    /// where its chain was subscribed.
    static func appliedFunctions<Upstream: OpenCombine.Publisher>(of publisher: Upstream) -> [UInt] {
        LiveValue.closures(in: publisher).flatMap { functions(of: $0.function, context: $0.context) }
    }

    /// The function a stored closure runs, and for a closure passed to generic code, which is
    /// stored as a reabstraction thunk keeping the closure first in its context, that closure's
    /// too, for the tracer to name (it names no line for the thunk). The caller holds the
    /// context alive; only a thunk's context is read, never a closure's captures.
    private static func functions(of function: UInt, context: UInt) -> [UInt] {
        // A closure that captures is stored as its partial-application forwarder, which
        // debug information does not place: the closure it calls is where it was written.
        let closure = Symbols.implementation(ofForwarder: function) ?? function
        guard context != 0, Symbols.isReabstractionThunkForwarder(function),
            let kept = UnsafeRawPointer(bitPattern: context + 2 * UInt(MemoryLayout<UInt>.size))
        else { return [closure] }
        let wrapped = kept.load(as: UInt.self)
        return [closure, Symbols.implementation(ofForwarder: wrapped) ?? wrapped]
    }
}

/// A publisher value that carries an object of its own, as a word the tracer reads from it.
protocol CarriesIdentity {
    var identityWord: UInt? { get }
    /// Whether the word is a box the value made for itself (else a closure's context, which
    /// may be an object the closure captured).
    var identityIsBox: Bool { get }
}

extension AnyPublisher: CarriesIdentity {
    /// The box: an `AnyPublisher` stores it and nothing else, and erasing an erased publisher
    /// again keeps its box.
    var identityWord: UInt? {
        guard MemoryLayout<Self>.size == MemoryLayout<UInt>.size else { return nil }
        return withUnsafeBytes(of: self) { $0.load(as: UInt.self) }
    }
    var identityIsBox: Bool { true }
}

extension Deferred: CarriesIdentity {
    /// The factory's context: a `Deferred` stores its factory (a function and its context)
    /// and nothing else.
    var identityWord: UInt? {
        guard MemoryLayout<Self>.size == 2 * MemoryLayout<UInt>.size else { return nil }
        return withUnsafeBytes(of: self) { $0.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt.self) }
    }
    var identityIsBox: Bool { false }
}
#endif
