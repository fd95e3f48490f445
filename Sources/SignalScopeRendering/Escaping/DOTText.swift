/// Text made safe for a quoted DOT string, which Graphviz then turns into SVG.
package enum DOTText {
    /// `text` as a DOT string: quotes and backslashes escaped, a line feed as a DOT line
    /// break, `&`, `<` and `>` as entities (Graphviz decodes them and escapes them again in
    /// SVG), unsafe characters (``UnsafeScalars``) escaped visibly, and everything else as
    /// UTF-8. Graphviz mangles numeric references beyond the Basic Multilingual Plane (an
    /// emoji), which left the SVG not well-formed, so no character goes as a reference.
    package static func quoted(_ text: String) -> String {
        let body = UnsafeScalars.map(text) { scalar in
            switch scalar {
            case "\"": "\\\""
            case "\\": "\\\\"
            case "\n": "\\n"
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case _ where UnsafeScalars.contains(scalar): "\\" + UnsafeScalars.escape(scalar)
            default: nil
            }
        }
        return "\"\(body)\""
    }
}
