/// Where in the user's code something was created or subscribed.
///
/// Every public entry point that creates a signal, subject, subscription or command takes
/// `file`, `line` and `function` parameters defaulted to the caller's location, so traces
/// point at user code rather than at the runtime. The literals are kept as `StaticString`,
/// so recording a location costs no allocation; tools can key on ``fileID``'s address.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file, as `#fileID` gives it (`Module/File.swift`).
    public let fileID: StaticString
    /// The line in the file.
    public let line: UInt
    /// The enclosing declaration, as `#function` gives it.
    public let function: StaticString

    /// Creates a location from the literals `#fileID`, `#line` and `#function`.
    public init(fileID: StaticString, line: UInt, function: StaticString) {
        self.fileID = fileID
        self.line = line
        self.function = function
    }

    /// Shorthand for the literals every public entry point receives.
    init(_ fileID: StaticString, _ line: UInt, _ function: StaticString) {
        self.init(fileID: fileID, line: line, function: function)
    }

    /// The file as a `String`.
    public var file: String { fileID.description }

    /// `Module/File.swift:12 in function()`.
    public var description: String { "\(fileID):\(line) in \(function)" }

    /// Locations are equal when their text is, wherever the literals are stored.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.line == rhs.line && lhs.file == rhs.file && lhs.function.description == rhs.function.description
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(file)
        hasher.combine(line)
        hasher.combine(function.description)
    }
}
