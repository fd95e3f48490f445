/// A problem that stops a command; its description is the one line the user sees (exit 1).
struct CLIError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
