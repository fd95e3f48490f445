/// The escaping that SVG text and DOT labels (which Graphviz turns into SVG) share.
enum Markup {
    /// The character reference for a scalar that markup must never see raw (`&`, `<`, `>`),
    /// a space for a control character, or `nil` when the scalar can stay as it is.
    static func replacement(for scalar: Unicode.Scalar) -> String? {
        switch scalar {
        case "&": "&amp;"
        case "<": "&lt;"
        case ">": "&gt;"
        case _ where scalar.value < 0x20 || scalar.value == 0x7F: " "
        default: nil
        }
    }
}
