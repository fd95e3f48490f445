/// Text made safe for XML content and quoted attribute values (JUnit, SVG, HTML).
package enum XMLText {
    /// `text` with the markup characters as entities, tab, line feed and carriage return
    /// as character references (attribute values keep them), and every other character XML
    /// forbids or a reader should not meet raw (``UnsafeScalars``) escaped visibly, so the
    /// document stays well-formed whatever the trace held.
    package static func escaped(_ text: String) -> String {
        UnsafeScalars.map(text) { scalar in
            switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "\"": "&quot;"
            case "'": "&apos;"
            case "\t", "\n", "\r": "&#\(scalar.value);"
            default: nil
            }
        }
    }
}
