/// Where in the user's code something was created or subscribed.
///
/// Every public entry point that creates a signal, subject, subscription or command takes
/// `file`, `line` and `function` parameters defaulted to the caller's location, so traces
/// point at user code rather than at the runtime. The compiler's literals are kept as
/// `StaticString`, so recording such a location costs no allocation; an adapter of another
/// library, which learns a site from that library or from debug information, gives it as
/// strings (``init(file:line:function:)``).
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The words of a location's file or function: a literal the compiler wrote (`#fileID`,
    /// `#function`), or a string.
    public enum Text: Sendable, CustomStringConvertible {
        case literal(StaticString)
        case string(String)

        public var description: String {
            switch self {
            case .literal(let literal): literal.description
            case .string(let string): string
            }
        }
    }

    /// The file, as `#fileID` gives it (`Module/File.swift`).
    public let fileText: Text
    /// The line in the file.
    public let line: UInt
    /// The enclosing declaration, as `#function` gives it.
    public let functionText: Text

    /// Creates a location from the literals `#fileID`, `#line` and `#function`.
    public init(fileID: StaticString, line: UInt, function: StaticString) {
        fileText = .literal(fileID)
        self.line = line
        functionText = .literal(function)
    }

    /// Creates a location from text: the file as `#fileID` writes it (`Module/File.swift`),
    /// the line, and the enclosing declaration as `#function` writes it.
    public init(file: String, line: UInt, function: String) {
        fileText = .string(file)
        self.line = line
        functionText = .string(function)
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
        lhs.line == rhs.line && lhs.file == rhs.file && lhs.function == rhs.function
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(file)
        hasher.combine(line)
        hasher.combine(function)
    }
}
