/// `codeSite` (kind 27, format 3.4): where a site known by its code is
/// (`SourceLocation(callers:)`, an adapter's subscribe): records made before it was known
/// give the site as their file, with line 0, and the reader reads them as this file, function
/// and line. Written once the recording has ended, together, so that the program never waits
/// for symbolication; a log cut off before then names such sites `?`.
struct CodeSiteRecord: EventRecord {
    static let kind: UInt8 = 27
    static let name = "codeSite"

    /// The id records give as their file: one no `string` record has.
    var site: UInt32 = 0
    var file: UInt32 = 0
    var function: UInt32 = 0
    var line: UInt32 = 0

    @inline(__always) mutating func fields(_ visitor: inout some RecordFieldVisitor) {
        visitor.visit(&site, "site")
        visitor.visit(&file, "file")
        visitor.visit(&function, "function")
        visitor.visit(&line, "line")
    }

    /// Code sites are read in the reader's first pass, with the strings, not visited as events.
    func event(strings: LogStrings) -> TraceEvent? { nil }
}
