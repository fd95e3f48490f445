/// A closure the runtime keeps alive, as it stores it: what a tracer needs to find the
/// closure in memory and to name it when a leak runs through it.
///
/// A Swift closure is two words, a function pointer and a context; the context keeps the
/// closure's captures alive (it is the one object the closure captures, or a block that
/// lists them). The words are read as the runtime stores them: handing a closure to generic
/// code would give it a reabstraction thunk, with other words, so each shape of closure the
/// runtime keeps has an initializer of its own (below).
public struct KeptClosure: Sendable, Hashable, BitwiseCopyable {
    /// What the closure is for.
    public let role: ClosureRole
    /// Where the user's code passed it (an operator call, a `subscribe`, a `Command(...)`),
    /// when the runtime knows.
    public let site: SourceLocation?
    /// The closure's function pointer (for the package's tracer, which reads memory; not API).
    package let function: UInt
    /// The closure's context, or 0 when it captures nothing.
    package let context: UInt

    /// Describes a closure from its two words.
    package init(role: ClosureRole, site: SourceLocation?, function: UInt, context: UInt) {
        self.role = role
        self.site = site
        self.function = function
        self.context = context
    }

    /// Reads the two words of `cell`, a struct whose only stored property is the closure
    /// (declared with the closure's own type, so it is stored unchanged).
    ///
    /// Inlined, and the words taken with a bit cast: a cell's layout does not depend on its
    /// generic arguments, so the inlined cast needs no metadata, where a call with the cell
    /// as a generic argument looked the cell type's metadata up each time (about 330
    /// instructions a closure, in the runtime's unspecialized operators).
    @inline(__always)
    private init<Cell>(_ role: ClosureRole, _ site: SourceLocation?, cell: Cell) {
        let (function, context) = unsafeBitCast(cell, to: (UInt, UInt).self)
        self.init(role: role, site: site, function: function, context: context)
    }
}

/// What a closure the runtime keeps is for.
///
/// Roles are a small vocabulary, each kept for the life of the process under a number (see
/// ``InternTable``), so that a ``KeptClosure`` is plain words: copied, stored and freed with
/// no retain or release of its role's text.
public struct ClosureRole: RawRepresentable, Hashable, Sendable, BitwiseCopyable, CustomStringConvertible {
    private static let names = InternTable<String>()

    private let number: UInt32

    public init(rawValue: String) { number = Self.names.number(of: rawValue) }
    public var rawValue: String { Self.names.value(number) }
    public var description: String { rawValue }

    // A role's number names its text, so comparing numbers compares text.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.number == rhs.number }
    public func hash(into hasher: inout Hasher) { hasher.combine(number) }

    /// A cold signal's creation block (`Signal { subscriber in ... }`).
    public static let creationBlock = ClosureRole(rawValue: "creation block")
    /// The block an operator stage subscribes upstream with (the runtime's own).
    public static let stage = ClosureRole(rawValue: "stage block")
    /// An observer's closures (`subscribe(next:error:completed:)`).
    public static let next = ClosureRole(rawValue: "next closure")
    public static let error = ClosureRole(rawValue: "error closure")
    public static let completed = ClosureRole(rawValue: "completed closure")
    /// A value's transformation (`map`, `flattenMap`).
    public static let transform = ClosureRole(rawValue: "transform")
    /// A test of each value (`filter`, `takeWhile`, `skipWhile`, `distinctUntilChanged(by:)`).
    public static let predicate = ClosureRole(rawValue: "predicate")
    /// A running combination (`scan`, `aggregate`).
    public static let reducer = ClosureRole(rawValue: "reducer")
    /// A side effect (`doNext`, `doError`, `doCompleted`, `log`).
    public static let sideEffect = ClosureRole(rawValue: "side effect")
    /// What replaces a failed signal (`catch`).
    public static let handler = ClosureRole(rawValue: "handler")
    /// What makes a signal when one is needed (`defer`, `then`).
    public static let factory = ClosureRole(rawValue: "factory")
    /// What makes `bind`'s binder.
    public static let binder = ClosureRole(rawValue: "binder factory")
    /// A command's block.
    public static let execution = ClosureRole(rawValue: "execution block")
    /// An action a scheduler will run, once or repeatedly.
    public static let scheduledAction = ClosureRole(rawValue: "scheduled action")
}

// One initializer per shape of closure the runtime keeps: each stores the closure in a
// struct declared with exactly its type, so the words read are the stored ones.

extension KeptClosure {
    private struct Transform<A, B> { let body: (A) -> B }
    private struct Predicate<A> { let body: (A) -> Bool }
    private struct Flatten<A, B> { let body: (A) -> Signal<B> }
    private struct Effect<A> { let body: (A) -> Void }
    private struct ErrorEffect { let body: (any Error) -> Void }
    private struct Action { let body: () -> Void }
    private struct Recovery<A> { let body: (any Error) -> Signal<A> }
    private struct Reducer<R, A> { let body: (R, A) -> R }
    private struct Equivalence<A> { let body: (A, A) -> Bool }
    private struct Factory<A> { let body: () -> Signal<A> }
    private struct BinderFactory<A, B> { let body: () -> (A, inout Bool) -> Signal<B>? }
    private struct Output { let body: (String) -> Void }
    private struct Creation<A> { let body: (Subscriber<A>) -> Disposable? }

    /// `(Value) -> Output`: `map`'s transform.
    init<A, B>(_ role: ClosureRole, _ site: SourceLocation?, _ closure: @escaping (A) -> B) {
        self.init(role, site, cell: Transform(body: closure))
    }

    /// `(Value) -> Bool`: a predicate.
    init<A>(_ role: ClosureRole, _ site: SourceLocation?, _ closure: @escaping (A) -> Bool) {
        self.init(role, site, cell: Predicate(body: closure))
    }

    /// `(Value) -> Signal<Output>`: `flattenMap`'s transform, a command's block.
    init<A, B>(_ role: ClosureRole, _ site: SourceLocation?, _ closure: @escaping (A) -> Signal<B>) {
        self.init(role, site, cell: Flatten(body: closure))
    }

    /// `(Value) -> Void`: `doNext`, an observer's `next`.
    init<A>(_ role: ClosureRole, _ site: SourceLocation?, _ closure: @escaping (A) -> Void) {
        self.init(role, site, cell: Effect(body: closure))
    }

    /// `(any Error) -> Void`: `doError`, an observer's `error`.
    init(_ role: ClosureRole, _ site: SourceLocation?, _ closure: @escaping (any Error) -> Void) {
        self.init(role, site, cell: ErrorEffect(body: closure))
    }

    /// `() -> Void`: `doCompleted`, an observer's `completed`, a scheduled action.
    init(_ role: ClosureRole, _ site: SourceLocation?, _ closure: @escaping () -> Void) {
        self.init(role, site, cell: Action(body: closure))
    }

    /// `(any Error) -> Signal<Value>`: `catch`'s handler.
    init<A>(_ role: ClosureRole, _ site: SourceLocation?, _ closure: @escaping (any Error) -> Signal<A>) {
        self.init(role, site, cell: Recovery(body: closure))
    }

    /// `(Result, Value) -> Result`: `scan`'s and `aggregate`'s reducer.
    init<R, A>(_ role: ClosureRole, _ site: SourceLocation?, _ closure: @escaping (R, A) -> R) {
        self.init(role, site, cell: Reducer(body: closure))
    }

    /// `(Value, Value) -> Bool`: `distinctUntilChanged(by:)`'s test.
    init<A>(_ role: ClosureRole, _ site: SourceLocation?, _ closure: @escaping (A, A) -> Bool) {
        self.init(role, site, cell: Equivalence(body: closure))
    }

    /// `() -> Signal<Value>`: `defer`'s and `then`'s factory.
    init<A>(_ role: ClosureRole, _ site: SourceLocation?, _ closure: @escaping () -> Signal<A>) {
        self.init(role, site, cell: Factory(body: closure))
    }

    /// `bind`'s binder factory.
    init<A, B>(_ role: ClosureRole, _ site: SourceLocation?, _ closure: @escaping () -> (A, inout Bool) -> Signal<B>?) {
        self.init(role, site, cell: BinderFactory(body: closure))
    }

    /// `(String) -> Void`: `log`'s output.
    init(_ role: ClosureRole, _ site: SourceLocation?, _ closure: @escaping (String) -> Void) {
        self.init(role, site, cell: Output(body: closure))
    }

    /// `(Subscriber<Value>) -> Disposable?`: a signal's creation block.
    init<A>(_ role: ClosureRole, _ site: SourceLocation?, _ closure: @escaping (Subscriber<A>) -> Disposable?) {
        self.init(role, site, cell: Creation(body: closure))
    }
}

/// What keeps a set of closures alive, for as long as it lives.
public enum ClosureOwner: Sendable, Hashable {
    /// A signal: its creation block and its operator's closures.
    case node(NodeID)
    /// A ``Command``: its execution block.
    case command
    /// An action a scheduler will run, until it has run or is cancelled; scheduled on behalf
    /// of this subscription, if one was being set up or delivered to.
    case scheduledAction(SubscriptionID?)
}

// An observer's closures, read as the runtime stores them: optional, with `nil` as a null
// function pointer. Cast from a cell of the optional's own type, they are read with no copy
// of the closure taken out of its optional first (each a retain and a release).

extension StoredObserver.Words {
    private struct Next<A> { let body: ((A) -> Void)? }
    private struct Failure { let body: ((any Error) -> Void)? }
    private struct Completion { let body: (() -> Void)? }

    /// An observer's `next` (a null function pointer when it has none).
    @inline(__always)
    init<A>(next closure: ((A) -> Void)?) {
        self = unsafeBitCast(Next(body: closure), to: Self.self)
    }

    /// An observer's `error` (a null function pointer when it has none).
    @inline(__always)
    init(error closure: ((any Error) -> Void)?) {
        self = unsafeBitCast(Failure(body: closure), to: Self.self)
    }

    /// An observer's `completed` (a null function pointer when it has none).
    @inline(__always)
    init(completed closure: (() -> Void)?) {
        self = unsafeBitCast(Completion(body: closure), to: Self.self)
    }
}
