import SignalScopeTools
import Testing

/// Locations and closure roles are plain words (their text kept once for the process), so
/// what reads them back must find the text they were made with, however it was given.
@Suite("Source locations and closure roles", .timeLimit(.minutes(10)))
struct SourceLocationTests {
    @Test("A location reads back the text it was made with: literals, strings or a call stack; equal text is equal however it is held")
    func textReadsBack() {
        let literal = SourceLocation(fileID: "App/Screen.swift", line: 12, function: "load()")
        let text = SourceLocation(file: "App/Screen.swift", line: 12, function: "load()")
        #expect(literal.file == "App/Screen.swift" && literal.function == "load()" && literal.line == 12)
        #expect(text.file == "App/Screen.swift" && text.function == "load()" && text.line == 12)
        #expect(literal == text && literal.hashValue == text.hashValue)
        #expect(literal.callers == nil && text.callers == nil)
        let other = SourceLocation(file: "App/Screen.swift", line: 12, function: "reload()")
        #expect(other.function == "reload()" && other != text, "a second pair in the same file keeps its own text")
        let stack = SourceLocation(callers: [0x1000, 0x2000])
        #expect(stack.callers == [0x1000, 0x2000] && stack.line == 0)
        #expect(SourceLocation(callers: [0x1000, 0x2000]) == stack)
        #expect(SourceLocation(callers: [0x1000]) != stack)
        if case .callers(let callers) = stack.fileText { #expect(callers == [0x1000, 0x2000]) } else { Issue.record("not a call stack") }
        if case .string(let file) = text.fileText { #expect(file == "App/Screen.swift") } else { Issue.record("not a string") }
        if case .literal(let file) = literal.fileText { #expect(file.description == "App/Screen.swift") } else { Issue.record("not a literal") }
    }

    @Test("A closure role reads back its text, and roles are equal when their text is")
    func rolesReadBack() {
        let custom = ClosureRole(rawValue: "a library's role")
        #expect(custom.rawValue == "a library's role" && custom.description == "a library's role")
        #expect(ClosureRole(rawValue: "a library's role") == custom)
        #expect(ClosureRole(rawValue: "next closure") == .next)
        #expect(Set([ClosureRole.next, .error, ClosureRole(rawValue: "next closure")]).count == 2)
        #expect(ClosureRole.next != .error && ClosureRole.transform.rawValue == "transform")
    }
}
