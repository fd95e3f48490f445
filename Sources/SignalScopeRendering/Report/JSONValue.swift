/// A JSON document built as a tree, in a fixed member order, and written with
/// ``JSONBuffer``'s escaping: the report's data is small enough to build whole, and a tree
/// keeps the code that builds it declarative.
indirect enum JSONValue {
    case string(String)
    /// A number, as its decimal text.
    case number(String)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])

    static func int(_ value: some BinaryInteger) -> JSONValue { .number("\(value)") }

    static func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }

    func write(into out: inout JSONBuffer) {
        switch self {
        case .string(let text): out.string(text)
        case .number(let text): out.raw(text)
        case .bool(let value): out.raw(value ? "true" : "false")
        case .null: out.raw("null")
        case .array(let elements):
            out.raw("[")
            for (index, element) in elements.enumerated() {
                if index > 0 { out.raw(",") }
                element.write(into: &out)
            }
            out.raw("]")
        case .object(let members):
            out.raw("{")
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out.raw(",") }
                out.key(key)
                value.write(into: &out)
            }
            out.raw("}")
        }
    }
}
