/// The escaping that SVG text and DOT labels (which Graphviz turns into SVG) share.
package enum Markup {
    /// The character reference for a scalar that markup must never see raw (`&`, `<`, `>`),
    /// a space for a control character, or `nil` when the scalar can stay as it is.
    package static func replacement(for scalar: Unicode.Scalar) -> String? {
        switch scalar {
        case "&": "&amp;"
        case "<": "&lt;"
        case ">": "&gt;"
        case _ where scalar.value < 0x20 || scalar.value == 0x7F: " "
        default: nil
        }
    }

    /// `text` escaped for XML content and quoted attribute values.
    package static func xmlEscaped(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            if scalar == "\"" {
                escaped += "&quot;"
            } else if scalar == "\n" {
                escaped += "&#10;"
            } else if let replacement = replacement(for: scalar) {
                escaped += replacement
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
