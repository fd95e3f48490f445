/// Where in the user's code something was created or subscribed.
///
/// Every public entry point that creates a signal, subject, subscription or command takes
/// `file`, `line` and `function` parameters defaulted to the caller's location, so traces
/// point at user code rather than at the runtime. The compiler's literals are kept as
/// `StaticString`, so recording such a location costs no allocation; an adapter of another
/// library, which learns a site from that library or from debug information, gives it as
/// strings (``init(file:line:function:)``), or as the return addresses of the call that made
/// the thing, which the tracer names (``init(callers:)``).
public struct SourceLocation: Sendable, Hashable, BitwiseCopyable, CustomStringConvertible {
    /// The words of a location's file or function: a literal the compiler wrote (`#fileID`,
    /// `#function`), a string, or, for a location known by its code (``init(callers:)``), the
    /// return addresses of its call stack, innermost first.
    public enum Text: Sendable, CustomStringConvertible {
        case literal(StaticString)
        case string(String)
        case callers([UInt])

        /// The text; `?` for a location known by its code, which only a tracer names.
        public var description: String {
            switch self {
            case .literal(let literal): literal.description
            case .string(let string): string
            case .callers: "?"
            }
        }
    }

    /// How a location holds its words: the compiler's two literals inline, other text by
    /// its number in a process-wide table (``InternTable``). Either way a location is plain
    /// words, so copying one (each kept closure and each stage holds one) copies them with
    /// no call: held as two `Text` values, a copy and a destroy switched over both and
    /// retained or released a string or an array in each.
    private enum Storage: Sendable, BitwiseCopyable {
        case literals(file: StaticString, function: StaticString)
        case interned(UInt32)
    }

    /// A location's text when it is not the compiler's literals.
    private enum Interned: Hashable, Sendable {
        case strings(file: String, function: String)
        case callers([UInt])

        var file: Text {
            switch self {
            case .strings(let file, _): .string(file)
            case .callers(let callers): .callers(callers)
            }
        }

        var function: Text {
            switch self {
            case .strings(_, let function): .string(function)
            case .callers(let callers): .callers(callers)
            }
        }
    }

    private static let interned = InternTable<Interned>()

    private let storage: Storage
    /// The line in the file.
    public let line: UInt

    /// The file, as `#fileID` gives it (`Module/File.swift`).
    public var fileText: Text {
        switch storage {
        case .literals(let file, _): .literal(file)
        case .interned(let number): Self.interned.value(number).file
        }
    }

    /// The enclosing declaration, as `#function` gives it.
    public var functionText: Text {
        switch storage {
        case .literals(_, let function): .literal(function)
        case .interned(let number): Self.interned.value(number).function
        }
    }

    /// Creates a location from the literals `#fileID`, `#line` and `#function`.
    public init(fileID: StaticString, line: UInt, function: StaticString) {
        storage = .literals(file: fileID, function: function)
        self.line = line
    }

    /// Creates a location from text: the file as `#fileID` writes it (`Module/File.swift`),
    /// the line, and the enclosing declaration as `#function` writes it. Each distinct file
    /// and function pair is kept for the life of the process.
    public init(file: String, line: UInt, function: String) {
        storage = .interned(Self.interned.number(of: .strings(file: file, function: function)))
        self.line = line
    }

    /// Creates a location known by its code: the return addresses of the call stack that
    /// made the thing, innermost first (`backtrace(3)`'s order). A tracer names it by the
    /// innermost frame in code somebody wrote outside the reactive libraries (the runtime's,
    /// and every module declared one), symbolicating each address once: an adapter of a
    /// library that knows no sites captures the addresses, cheap, and never symbolicates.
    /// Each distinct call stack is kept for the life of the process.
    public init(callers: [UInt]) {
        storage = .interned(Self.interned.number(of: .callers(callers)))
        line = 0
    }

    /// The compiler's literals, when the location holds them (every location the runtime
    /// makes): what a tracer reads first, without asking for each text.
    package var literals: (file: StaticString, function: StaticString)? {
        if case .literals(let file, let function) = storage { (file, function) } else { nil }
    }

    /// For a location known by its code, the return addresses it was made from.
    public var callers: [UInt]? {
        guard case .interned(let number) = storage, case .callers(let callers) = Self.interned.value(number) else { return nil }
        return callers
    }

    /// Shorthand for the literals every public entry point receives.
    init(_ fileID: StaticString, _ line: UInt, _ function: StaticString) {
        self.init(fileID: fileID, line: line, function: function)
    }

    /// The file as a `String`.
    public var file: String { fileText.description }

    /// The enclosing declaration as a `String`.
    public var function: String { functionText.description }

    /// `Module/File.swift:12 in function()`.
    public var description: String { "\(file):\(line) in \(function)" }

    /// Locations are equal when their text is, however it is stored.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.line == rhs.line && lhs.callers == rhs.callers && lhs.file == rhs.file && lhs.function == rhs.function
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(callers)
        hasher.combine(file)
        hasher.combine(line)
        hasher.combine(function)
    }
}
