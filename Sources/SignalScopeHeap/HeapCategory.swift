/// Whose object a heap object is, by its type.
public enum HeapCategory: UInt8, Sendable, Hashable {
    /// An instance of the program's own classes (or of a library it uses).
    case user = 0
    /// An object of a reactive library's runtime (SignalScope's, or a module an adapter
    /// declared one, ``HeapModules``): a signal, a subscription, a disposable, a command, a
    /// scheduled action, or their internals.
    case runtime = 1
    /// A closure's context, or the box of a captured `var`.
    case closureContext = 2
    /// A box for an existential's value, an error, or an indirect enum case.
    case box = 3
    /// A collection's storage: an array's, a dictionary's, a set's, a deque's.
    case storage = 4
    /// A standard library or toolchain object that is no collection.
    case library = 5
}

/// How much of an object's references a heap walk saw.
public enum HeapExploration: UInt8, Sendable, Hashable {
    /// All of its strong references.
    case complete = 0
    /// Some: part of it could not be decoded, or was scanned conservatively.
    case partial = 1
    /// None: the walk's budget ran out before it.
    case notExplored = 2
}
