/// `typeSite` (kind 22): in the snapshot, where a class of the program's is declared.
struct TypeSiteRecord: EventRecord {
    static let kind: UInt8 = 22
    static let name = "typeSite"

    var typeName: UInt32 = 0
    var file: UInt32 = 0
    var function: UInt32 = 0
    var line: UInt32 = 0

    @inline(__always) mutating func fields(_ visitor: inout some RecordFieldVisitor) {
        visitor.visit(&typeName, "typeName")
        visitor.visit(&file, "file")
        visitor.visit(&function, "function")
        visitor.visit(&line, "line")
    }

    func event(strings: LogStrings) -> TraceEvent? {
        .typeSite(typeName: strings.string(typeName), site: strings.site(file: file, function: function, line: line))
    }
}
